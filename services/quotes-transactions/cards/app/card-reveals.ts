import { randomUUID } from 'node:crypto';
import { AppError } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/log';
import type { Card } from '../domain/card';
import type { Caller } from '../../shared/app/payment-accounts';
import { signRevealToken, verifyRevealToken } from './reveal-token';

export interface CardData {
  pan: string;
  cvv: string;
  expMonth: number;
  expYear: number;
}

/** Where the embedded processor keeps the card data it shows on its reveal page (the sandbox issuer's sealed store). */
export interface CardDataSource {
  cardData(cardId: string): Promise<CardData | null>;
}

/** One reveal: who asked for which card, until when, and whether its URL was opened (its single use). */
export interface CardReveal {
  id: string;
  platformId: string;
  cardId: string;
  actor: string;
  createdAt: string;
  expiresAt: string;
  openedAt?: string;
}

export interface CardRevealStore {
  ensureIndexes(): Promise<void>;
  insert(reveal: CardReveal): Promise<void>;
  /** Marks the reveal opened if it was not yet and has not expired at `now`, atomically; null otherwise. */
  claim(id: string, now: string): Promise<CardReveal | null>;
}

export interface CardRevealSettings {
  ttlMs: number;
  /** Public address of the gateway serving `/card-reveal/<token>`. */
  pageBaseUrl: string;
  frameAncestors: string[];
}

function refused(): AppError {
  return new AppError('NOT_FOUND', 'Card reveal unknown, expired or already used');
}

/** The card may be shown: provisioned and not closed (a FROZEN card is still the cardholder's). */
function assertRevealable(card: Card): void {
  if (card.state === 'CLOSED') {
    throw new AppError('CARD_ALREADY_CLOSED', `${card.id} is CLOSED: its details are not revealed`);
  }
  if (card.state !== 'ACTIVE' && card.state !== 'FROZEN') {
    throw new AppError('CONFLICT', `${card.id} is ${card.state}: it has no details to reveal yet`);
  }
}

/**
 * Reveals of a card's PAN, CVV and expiry: a signed URL of the page the system serves, short-lived
 * and opened once. Each reveal and each opening is audit-logged with its actor, never with card data.
 */
export function createCardReveals(deps: {
  card: (caller: Caller, id: string) => Promise<Card>;
  /** Absent when the card issuer serves its own reveal page (none here: NOT_IMPLEMENTED). */
  cardData?: CardDataSource;
  store: CardRevealStore;
  /**
   * Whether the cardholder may be shown its card data now: true unless it is under SCA without a
   * live SCA login session (the reference's reveal is SCA-railed). Absent: no SCA here.
   */
  scaAllows?: (caller: Caller, cardholderId: string) => Promise<boolean>;
  key: Uint8Array;
  settings: CardRevealSettings;
  clock: () => Date;
  logger: Logger;
}) {
  const { store, key, settings, logger } = deps;
  return {
    async reveal(caller: Caller, cardId: string, actor: string): Promise<{ panEmbedUrl: string; expiresAt: string }> {
      if (!actor) throw new AppError('FORBIDDEN', 'The request has no attributable actor to audit the reveal against');
      if (!deps.cardData) {
        throw new AppError('NOT_IMPLEMENTED', 'The configured card issuer serves no reveal page in this environment');
      }
      const card = await deps.card(caller, cardId);
      assertRevealable(card);
      if (deps.scaAllows && !(await deps.scaAllows(caller, card.cardholderId))) {
        throw new AppError(
          'SCA_SESSION_REQUIRED',
          'The cardholder is under SCA: revealing its card needs its live SCA login session (POST /sca/login/complete)',
        );
      }
      const now = deps.clock();
      const expiresAt = new Date(Math.floor((now.getTime() + settings.ttlMs) / 1000) * 1000);
      const reveal: CardReveal = {
        id: `CardReveal:${randomUUID()}`,
        platformId: caller.platformId,
        cardId: card.id,
        actor,
        createdAt: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
      };
      await store.insert(reveal);
      const token = await signRevealToken(key, reveal.id, expiresAt);
      logger.info('card reveal minted', {
        audit: 'CARD_REVEAL',
        platformId: caller.platformId,
        cardId: card.id,
        actor,
        revealId: reveal.id,
        expiresAt: reveal.expiresAt,
      });
      return {
        panEmbedUrl: `${settings.pageBaseUrl.replace(/\/+$/, '')}/card-reveal/${token}`,
        expiresAt: reveal.expiresAt,
      };
    },

    /**
     * The card data for the page, once per reveal; a tampered, expired or used token, or a card closed since, is
     * refused alike.
     */
    async open(token: string): Promise<CardData & { frameAncestors: string[] }> {
      const now = deps.clock();
      const revealId = await verifyRevealToken(key, token, now);
      if (!revealId || !deps.cardData) throw refused();
      const reveal = await store.claim(revealId, now.toISOString());
      if (!reveal) {
        logger.warn('card reveal refused', {
          audit: 'CARD_REVEAL_REFUSED',
          revealId,
          reason: 'already used or expired',
        });
        throw refused();
      }
      const card = await deps.card({ platformId: reveal.platformId }, reveal.cardId);
      const data = card.state === 'CLOSED' ? null : await deps.cardData.cardData(card.id);
      if (!data) throw refused();
      logger.info('card reveal opened', {
        audit: 'CARD_REVEAL_OPENED',
        platformId: reveal.platformId,
        cardId: card.id,
        actor: reveal.actor,
        revealId,
      });
      return { ...data, frameAncestors: settings.frameAncestors };
    },
  };
}

export type CardReveals = ReturnType<typeof createCardReveals>;
