import { judgeRetry, type SignedRetryRecord } from './signed-retry-record';

const issued: SignedRetryRecord = {
  id: 'Request:1', platformId: 'Platform:1', operation: 'session.revoke', targetId: 'Session:1', requestHash: 'h1',
  payloadToSign: '{}', signer: { kind: 'session', accountIds: ['InternalAccount:1'] }, context: {}, state: 'ISSUED',
  issuedAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T00:05:00.000Z',
};
const claimed: SignedRetryRecord = { ...issued, state: 'CLAIMED', claim: { proof: 'stamp-a', requestHash: 'h1', claimedAt: issued.issuedAt } };
const attempt = { operation: 'session.revoke', targetId: 'Session:1', requestHash: 'h1', proof: 'stamp-a' };
const before = new Date('2026-01-01T00:04:59.999Z');
const at = new Date('2026-01-01T00:05:00.000Z');

describe('judgeRetry', () => {
  test.each([
    ['issued, identical, in time', issued, attempt, before, 'VERIFY_AND_CLAIM'],
    ['issued, at expiresAt', issued, attempt, at, 'EXPIRED'],
    ['issued, other body', issued, { ...attempt, requestHash: 'h2' }, before, 'BODY_MISMATCH'],
    ['issued, other body after expiry', issued, { ...attempt, requestHash: 'h2' }, at, 'BODY_MISMATCH'],
    ['issued, other operation', issued, { ...attempt, operation: 'session.refresh' }, before, 'BODY_MISMATCH'],
    ['issued, other target', issued, { ...attempt, targetId: 'Session:2' }, before, 'BODY_MISMATCH'],
    ['issued, body bound on retry', { ...issued, requestHash: '' }, { ...attempt, requestHash: 'h9' }, before, 'VERIFY_AND_CLAIM'],
    ['claimed, identical', claimed, attempt, before, 'CORRELATE'],
    ['claimed, identical, after expiry', claimed, attempt, at, 'CORRELATE'],
    ['claimed, other stamp', claimed, { ...attempt, proof: 'stamp-b' }, before, 'ALREADY_USED'],
    ['claimed, other body', claimed, { ...attempt, requestHash: 'h2' }, before, 'ALREADY_USED'],
    ['claimed, other endpoint', claimed, { ...attempt, operation: 'wallet.export' }, before, 'ALREADY_USED'],
  ] as const)('%s -> %s', (_name, record, input, now, verdict) => {
    expect(judgeRetry(record, input, now)).toBe(verdict);
  });
});
