import { judgeRetry, type SignedRetryRecord } from './signed-retry-record';

const issued: SignedRetryRecord = {
  id: 'Request:1',
  platformId: 'Platform:1',
  operation: 'session.revoke',
  targetId: 'Session:1',
  requestHash: 'h1',
  payloadToSign: '{}',
  signer: { kind: 'session', accountIds: ['InternalAccount:1'] },
  context: {},
  state: 'ISSUED',
  issuedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:05:00.000Z',
};
const claimed: SignedRetryRecord = {
  ...issued,
  state: 'CLAIMED',
  claim: { proof: 'stamp-a', requestHash: 'h1', claimedAt: issued.issuedAt },
};
const attempt = { operation: 'session.revoke', targetId: 'Session:1', requestHash: 'h1', proof: 'stamp-a' };
const before = new Date('2026-01-01T00:04:59.999Z');
const at = new Date('2026-01-01T00:05:00.000Z');

describe('judgeRetry', () => {
  test.each(
    [
      { name: 'issued, identical, in time', record: issued, input: attempt, now: before, verdict: 'VERIFY_AND_CLAIM' },
      { name: 'issued, at expiresAt', record: issued, input: attempt, now: at, verdict: 'EXPIRED' },
      {
        name: 'issued, other body',
        record: issued,
        input: { ...attempt, requestHash: 'h2' },
        now: before,
        verdict: 'BODY_MISMATCH',
      },
      {
        name: 'issued, other body after expiry',
        record: issued,
        input: { ...attempt, requestHash: 'h2' },
        now: at,
        verdict: 'BODY_MISMATCH',
      },
      {
        name: 'issued, other operation',
        record: issued,
        input: { ...attempt, operation: 'session.refresh' },
        now: before,
        verdict: 'BODY_MISMATCH',
      },
      {
        name: 'issued, other target',
        record: issued,
        input: { ...attempt, targetId: 'Session:2' },
        now: before,
        verdict: 'BODY_MISMATCH',
      },
      {
        name: 'issued, body bound on retry',
        record: { ...issued, requestHash: '' },
        input: { ...attempt, requestHash: 'h9' },
        now: before,
        verdict: 'VERIFY_AND_CLAIM',
      },
      { name: 'claimed, identical', record: claimed, input: attempt, now: before, verdict: 'CORRELATE' },
      { name: 'claimed, identical, after expiry', record: claimed, input: attempt, now: at, verdict: 'CORRELATE' },
      {
        name: 'claimed, other stamp',
        record: claimed,
        input: { ...attempt, proof: 'stamp-b' },
        now: before,
        verdict: 'ALREADY_USED',
      },
      {
        name: 'claimed, other body',
        record: claimed,
        input: { ...attempt, requestHash: 'h2' },
        now: before,
        verdict: 'ALREADY_USED',
      },
      {
        name: 'claimed, other endpoint',
        record: claimed,
        input: { ...attempt, operation: 'wallet.export' },
        now: before,
        verdict: 'ALREADY_USED',
      },
    ] as const,
  )('$name -> $verdict', ({ record, input, now, verdict }) => {
    expect(judgeRetry(record, input, now)).toBe(verdict);
  });
});
