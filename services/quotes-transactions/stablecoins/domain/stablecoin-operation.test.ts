import {
  awaitsExternalFunds,
  canMove,
  fiatCentsOf,
  gridOperationsStatusOf,
  isTerminal,
  PROVIDER_STATUS_TABLE,
  STABLECOIN_OPERATION_STATUSES,
  statusesBefore,
  statusFromProvider,
  type StablecoinOperationStatus,
} from './stablecoin-operation';

const ALLOWED: Array<[StablecoinOperationStatus, StablecoinOperationStatus]> = [
  ['CREATED', 'PENDING_FUNDING'],
  ['CREATED', 'PENDING_PROVIDER'],
  ['CREATED', 'PROCESSING'],
  ['CREATED', 'COMPLETED'],
  ['CREATED', 'FAILED'],
  ['PENDING_FUNDING', 'PENDING_PROVIDER'],
  ['PENDING_FUNDING', 'PROCESSING'],
  ['PENDING_FUNDING', 'COMPLETED'],
  ['PENDING_FUNDING', 'FAILED'],
  ['PENDING_FUNDING', 'EXPIRED'],
  ['PENDING_PROVIDER', 'PROCESSING'],
  ['PENDING_PROVIDER', 'COMPLETED'],
  ['PENDING_PROVIDER', 'FAILED'],
  ['PROCESSING', 'COMPLETED'],
  ['PROCESSING', 'FAILED'],
];

describe('the stablecoin operation status machine', () => {
  test('exactly the listed transitions are allowed, every other pair is refused', () => {
    for (const from of STABLECOIN_OPERATION_STATUSES) {
      for (const to of STABLECOIN_OPERATION_STATUSES) {
        const allowed = ALLOWED.some(([f, t]) => f === from && t === to);
        expect([from, to, canMove(from, to)]).toEqual([from, to, allowed]);
      }
    }
  });

  test('COMPLETED, FAILED and EXPIRED are terminal; only an unfunded operation expires', () => {
    expect(STABLECOIN_OPERATION_STATUSES.filter(isTerminal)).toEqual(['COMPLETED', 'FAILED', 'EXPIRED']);
    expect(statusesBefore('EXPIRED')).toEqual(['PENDING_FUNDING']);
    expect(statusesBefore('PROCESSING')).toEqual(['CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER']);
  });
});

describe('provider states', () => {
  test('one table maps every Brale transfer state; pending depends on who sends the funds', () => {
    expect(Object.keys(PROVIDER_STATUS_TABLE).sort()).toEqual([
      'canceled',
      'complete',
      'failed',
      'pending',
      'processing',
    ]);
    expect(statusFromProvider('pending', true)).toBe('PENDING_FUNDING');
    expect(statusFromProvider('pending', false)).toBe('PENDING_PROVIDER');
    expect(statusFromProvider('processing', true)).toBe('PROCESSING');
    expect(statusFromProvider('complete', false)).toBe('COMPLETED');
    expect(statusFromProvider('canceled', false)).toBe('FAILED');
    expect(statusFromProvider('failed', true)).toBe('FAILED');
    expect(statusFromProvider('something-new', true)).toBeUndefined();
  });

  test('wire mints and external-wallet burns wait for funds the issuer sends', () => {
    expect(awaitsExternalFunds('MINT', 'WIRE')).toBe(true);
    expect(awaitsExternalFunds('MINT', 'ACH_DEBIT')).toBe(false);
    expect(awaitsExternalFunds('MINT', 'GRID_INTERNAL_ACCOUNT')).toBe(false);
    expect(awaitsExternalFunds('BURN', 'EXTERNAL_ACCOUNT')).toBe(true);
    expect(awaitsExternalFunds('BURN', 'PROVIDER_INTERNAL_BALANCE')).toBe(false);
  });
});

describe('amounts', () => {
  test('a token amount converts to whole fiat cents exactly, or not at all', () => {
    expect(fiatCentsOf('1000000000', 6)).toBe(100_000);
    expect(fiatCentsOf('10000', 6)).toBe(1);
    expect(fiatCentsOf('10001', 6)).toBeUndefined();
    expect(fiatCentsOf('0', 6)).toBeUndefined();
    expect(fiatCentsOf('12', 2)).toBe(12);
    expect(fiatCentsOf('3', 0)).toBe(300);
    expect(fiatCentsOf('1e5', 6)).toBeUndefined();
    expect(fiatCentsOf('9'.repeat(40), 6)).toBeUndefined();
  });
});

describe('gridOperationsStatusOf', () => {
  test.each(
    [
      ['PROVISIONED', 'ACTIVE', 'ENABLED'],
      ['PROVISIONED', 'INVALID', 'ENABLED'],
      ['PENDING_REVIEW', 'ACTIVE', 'PENDING_APPROVAL'],
      ['PROVISIONING', 'ACTIVE', 'PENDING_APPROVAL'],
      ['REJECTED', 'ACTIVE', 'NOT_ENABLED'],
      ['FAILED', 'ACTIVE', 'NOT_ENABLED'],
      ['PROVISIONED', 'REVOKED', 'DISABLED'],
      ['PENDING_REVIEW', 'REVOKED', 'DISABLED'],
    ] as const,
  )('issuance %s on a %s link: %s', (issuance, link, expected) => {
    expect(gridOperationsStatusOf(issuance, link)).toBe(expected);
  });
});
