import { randomBytes } from 'node:crypto';
import type { AppError } from '../../../../lib/errors';
import { readCardsConfig } from '../cards-module';
import { asPlatform, PLATFORM, startPaymentsHarness, type PaymentsHarness } from '../../test-fixtures/payments-harness';

/** GRID_MODE=production with no real card issuer integrated: card issuing fails closed. */
let h: PaymentsHarness;
const key = () => randomBytes(32).toString('hex');

beforeAll(async () => {
  h = await startPaymentsHarness({
    GRID_MODE: 'production',
    SANDBOX_SETTLEMENT_STEP_MS: undefined,
    STABLECOIN_SECRET_KEY: key(),
    CARDS_DATA_KEY: key(),
  });
});
afterAll(async () => {
  await h?.stop();
});

test('production has no card issuer by default and refuses the sandbox one, naming the setting', () => {
  expect(readCardsConfig({ GRID_MODE: 'production' }).CARD_ISSUER).toBe('none');
  expect(readCardsConfig({}).CARD_ISSUER).toBe('sandbox');
  expect(() => readCardsConfig({ GRID_MODE: 'production', CARD_ISSUER: 'sandbox' })).toThrow(
    /CARD_ISSUER is sandbox, a simulator, which GRID_MODE=production refuses/,
  );
});

test('creating a card answers 501 NOT_IMPLEMENTED and no card is made', async () => {
  const customer = h.accounts.addCustomer(PLATFORM, { platformCustomerId: 'card-1' });
  const account = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: customer });
  const err =
    (await h.cards.createCard({ cardholderId: customer, form: 'VIRTUAL', fundingSources: [account] }, asPlatform).then(
      () => undefined,
      (e: unknown) => e,
    )) as AppError;
  expect(err.code).toBe('NOT_IMPLEMENTED');
  expect(await h.store.collection('cards').find({})).toEqual([]);
});
