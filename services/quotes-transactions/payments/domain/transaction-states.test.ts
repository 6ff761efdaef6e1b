import {
  assertRefundTransition,
  canTransition,
  isTerminal,
  quoteStatusOf,
  returnedStatus,
  TRANSACTION_STATUSES,
  type TransactionStatus,
} from './transaction-states';

type Direction = 'OUTGOING' | 'INCOMING';

/** Every move the state machine allows, besides staying put. */
const ALLOWED: Record<Direction, Array<[TransactionStatus, TransactionStatus]>> = {
  OUTGOING: [
    ['PENDING', 'PROCESSING'],
    ['PENDING', 'EXPIRED'],
    ['PENDING', 'FAILED'],
    ['PROCESSING', 'COMPLETED'],
    ['PROCESSING', 'FAILED'],
    ['PENDING', 'PENDING_AUTHORIZATION'],
    ['PENDING_AUTHORIZATION', 'PENDING'],
    ['PENDING_AUTHORIZATION', 'PROCESSING'],
    ['PENDING_AUTHORIZATION', 'FAILED'],
  ],
  INCOMING: [['CREATED', 'PENDING'], ['PENDING', 'COMPLETED'], ['PENDING', 'FAILED'], ['FAILED', 'REJECTED'], [
    'FAILED',
    'REFUNDED',
  ]],
};

const pairs = TRANSACTION_STATUSES.flatMap((from) =>
  TRANSACTION_STATUSES.filter((to) => to !== from).map((to) => [from, to] as const)
);

describe.each(['OUTGOING', 'INCOMING'] as const)('%s', (type) => {
  test.each(pairs)(`%s → %s only if listed`, (from, to) => {
    const listed = ALLOWED[type].some(([a, b]) => a === from && b === to);
    expect(canTransition(type, from, to)).toBe(listed);
  });
});

test("outgoing payments never become CREATED, REJECTED or REFUNDED (the reference's OutgoingTransactionStatus)", () => {
  for (const from of TRANSACTION_STATUSES) {
    for (const to of ['CREATED', 'REJECTED', 'REFUNDED'] as const) {
      if (from !== to) expect(canTransition('OUTGOING', from, to)).toBe(false);
    }
  }
});

test.each(
  [
    ['OUTGOING', 'FAILED', true],
    ['OUTGOING', 'COMPLETED', true],
    ['OUTGOING', 'EXPIRED', true],
    ['OUTGOING', 'PROCESSING', false],
    ['INCOMING', 'CREATED', false],
    ['INCOMING', 'FAILED', false],
    ['INCOMING', 'REFUNDED', true],
    ['INCOMING', 'REJECTED', true],
  ] as const,
)('%s %s is terminal: %s', (type, status, terminal) => {
  expect(isTerminal(type, status)).toBe(terminal);
});

test('a returned incoming payment is REJECTED when the receiving side refused it, REFUNDED otherwise', () => {
  expect([returnedStatus(true), returnedStatus(false)]).toEqual(['REJECTED', 'REFUNDED']);
});

test.each(
  [
    ['CREATED', 'PENDING'],
    ['PENDING', 'PENDING'],
    ['PROCESSING', 'PROCESSING'],
    ['COMPLETED', 'COMPLETED'],
    ['FAILED', 'FAILED'],
    ['REJECTED', 'FAILED'],
    ['REFUNDED', 'FAILED'],
    ['EXPIRED', 'EXPIRED'],
  ] as const,
)('a %s transaction shows its quote as %s', (status, quote) => {
  expect(quoteStatusOf(status)).toBe(quote);
});

test.each(
  [
    ['PENDING', 'COMPLETED', true],
    ['PENDING', 'FAILED', true],
    ['FAILED', 'PENDING', true],
    ['FAILED', 'COMPLETED', false],
    ['COMPLETED', 'PENDING', false],
    ['COMPLETED', 'FAILED', false],
  ] as const,
)('refund %s → %s allowed: %s', (from, to, allowed) => {
  const run = () => assertRefundTransition(from, to);
  if (allowed) expect(run).not.toThrow();
  else expect(run).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
});
