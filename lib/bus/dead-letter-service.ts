import { DeadLetterServiceService, type DeadLetter as DeadLetterMessage } from '../../gen/events/v1/dead_letters';
import { AppError } from '../errors';
import { bindService } from '../grpc/service-binding';
import type { DeadLetter, DeadLetters, DeadLetterStatus } from './dead-letters';

const STATUSES: readonly DeadLetterStatus[] = ['DEAD', 'REPLAYED'];

function message(l: DeadLetter): DeadLetterMessage {
  return {
    id: l._id,
    topic: l.topic,
    group: l.group,
    eventId: String(l.event.id),
    eventType: String(l.event.type),
    status: l.status,
    attempts: l.attempts,
    lastError: l.lastError,
    deadLetteredAt: l.deadLetteredAt,
    replayedAt: l.replayedAt ?? '',
    eventJson: JSON.stringify(l.event),
  };
}

function statusOf(value: string): DeadLetterStatus | undefined {
  if (!value) return undefined;
  if (!(STATUSES as readonly string[]).includes(value)) {
    throw AppError.invalidInput('Invalid query', [{
      field: 'status',
      message: `must be one of ${STATUSES.join(', ')}`,
    }]);
  }
  return value as DeadLetterStatus;
}

/** Decode, call one use case, encode: the operators' view of a service's dead letters. */
export function bindDeadLetterService(deadLetters: DeadLetters) {
  return bindService(DeadLetterServiceService, {
    async listDeadLetters(req) {
      if (req.limit < 0 || req.limit > 1_000) {
        throw AppError.invalidInput('Invalid query', [{
          field: 'limit',
          message: 'must be between 1 and 1000 (0: 100)',
        }]);
      }
      const found = await deadLetters.list({
        status: statusOf(req.status),
        group: req.group || undefined,
        limit: req.limit || 100,
      });
      return { deadLetters: found.map(message) };
    },
    async getDeadLetter(req) {
      return { deadLetter: message(await deadLetters.get(req.id)) };
    },
    async replayDeadLetter(req) {
      return { deadLetter: message(await deadLetters.replay(req.id)) };
    },
  });
}
