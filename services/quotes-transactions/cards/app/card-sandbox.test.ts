import type { CardAuthorizations } from './card-authorizations';
import { createCardSandbox } from './card-sandbox';

const caller = { platformId: 'Platform:1' };
const merchant = { descriptor: 'SHOP-002' };

test('outside the sandbox every simulation is FORBIDDEN before anything is decided', async () => {
  const calls: string[] = [];
  const authorizations = new Proxy({}, {
    get: (_t, name) => async () => {
      calls.push(String(name));
      throw new Error('not reached');
    },
  }) as CardAuthorizations;
  const sandbox = createCardSandbox({ enabled: false, authorizations });
  await expect(sandbox.authorization(caller, 'Card:1', { amount: 1, currencyCode: 'USD', merchant })).rejects
    .toMatchObject({ code: 'FORBIDDEN' });
  await expect(sandbox.clearing(caller, 'Card:1', { cardTransactionId: 'CardTransaction:1', amount: 1 })).rejects
    .toMatchObject({ code: 'FORBIDDEN' });
  await expect(sandbox.return(caller, 'Card:1', { cardTransactionId: 'CardTransaction:1', amount: 1 })).rejects
    .toMatchObject({ code: 'FORBIDDEN' });
  const auth = { amount: 1, currencyCode: 'USD', merchant };
  for (
    const simulation of [
      sandbox.creditAuthorization,
      sandbox.financialAuthorization,
      sandbox.financialCreditAuthorization,
      sandbox.creditAuthorizationAdvice,
    ]
  ) {
    await expect(simulation(caller, 'Card:1', auth)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  }
  await expect(sandbox.balanceInquiry(caller, 'Card:1', { merchant })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  await expect(sandbox.authorizationAdvice(caller, 'Card:1', { cardTransactionId: 'CardTransaction:1', amount: 1 }))
    .rejects.toMatchObject({ code: 'FORBIDDEN' });
  await expect(sandbox.returnReversal(caller, 'Card:1', { cardTransactionId: 'CardTransaction:1' })).rejects
    .toMatchObject({ code: 'FORBIDDEN' });
  expect(calls).toEqual([]);
});

test('the descriptor suffixes 002 and 003 are the issuer declining INSUFFICIENT_FUNDS and CARD_PAUSED', async () => {
  const requests: unknown[] = [];
  const authorizations = {
    authorize: async (_c: unknown, _id: string, request: unknown) => {
      requests.push(request);
      return { approved: false, transactionId: 'CardTransaction:x', reason: 'INSUFFICIENT_FUNDS' };
    },
  } as unknown as CardAuthorizations;
  const sandbox = createCardSandbox({ enabled: true, authorizations });
  await sandbox.authorization(caller, 'Card:1', { amount: 5, currencyCode: 'USD', merchant: { descriptor: 'A-002' } });
  await sandbox.authorization(caller, 'Card:1', { amount: 5, currencyCode: 'USD', merchant: { descriptor: 'A-003' } });
  await sandbox.authorization(caller, 'Card:1', { amount: 5, currencyCode: 'USD', merchant: { descriptor: 'A-004' } });
  expect(requests.map((r) => (r as { declinedByIssuer?: string }).declinedByIssuer)).toEqual([
    'INSUFFICIENT_FUNDS',
    'CARD_PAUSED',
    undefined,
  ]);
});

test('suffix 005 asks the issuer to confirm the pull later; 006 has its confirmation report FAILED', async () => {
  const requests: Array<{ pullConfirmAt?: string }> = [];
  const confirmations: string[] = [];
  const authorizations = {
    authorize: async (_c: unknown, _id: string, request: { pullConfirmAt?: string }) => {
      requests.push(request);
      return { approved: true, transaction: { id: 'CardTransaction:x', issuerTransactionToken: 'tok' } };
    },
    confirmPull: async (_c: unknown, _card: string, _tx: string, outcome: string) => {
      confirmations.push(outcome);
    },
  } as unknown as CardAuthorizations;
  const now = new Date('2026-05-08T14:30:00Z');
  const sandbox = createCardSandbox({ enabled: true, authorizations, clock: () => now, pullConfirmDelayMs: 30_000 });
  await sandbox.authorization(caller, 'Card:1', { amount: 5, currencyCode: 'USD', merchant: { descriptor: 'A-005' } });
  await sandbox.authorization(caller, 'Card:1', { amount: 5, currencyCode: 'USD', merchant: { descriptor: 'A-006' } });
  expect(requests.map((r) => r.pullConfirmAt)).toEqual(['2026-05-08T14:30:30.000Z', undefined]);
  expect(confirmations).toEqual(['FAILED']);
});
