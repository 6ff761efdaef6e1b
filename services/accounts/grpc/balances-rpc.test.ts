import { customerFieldsOf } from '../test-fixtures/request-bodies';
import { startAccountsService } from '../test-fixtures/accounts-service-harness';

describe('internal account balances come from the ledger', () => {
  test('one batched GetBalances per list page; the ledger amounts are shown', async () => {
    const h = await startAccountsService({ ACCOUNTS_PLATFORM_CURRENCIES: 'USD,BTC' });
    const p = await h.newPlatform();
    const { customer } = await h.client.createCustomer(
      { customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) },
      p,
    );
    const { accounts } = await h.client.listInternalAccounts({ customerId: customer!.id, limit: 0 }, p);
    const usd = accounts.find((a) => a.balance!.currency!.code === 'USD')!;
    h.ledger.balances.set(usd.id, { available: 12550, total: 13000, currency: 'USD' });
    h.ledger.calls.length = 0;

    const page = await h.client.listInternalAccounts({ customerId: customer!.id, limit: 0 }, p);
    expect(h.ledger.calls).toEqual([page.accounts.map((a) => a.id)]);
    const shown = page.accounts.find((a) => a.id === usd.id)!;
    expect([shown.balance!.amount, shown.totalBalance!.amount, shown.balance!.currency!.code]).toEqual([
      12550,
      13000,
      'USD',
    ]);
    expect((await h.client.getInternalAccount({ id: usd.id }, p)).account!.balance!.amount).toBe(12550);
    const platformAccounts = await h.client.listPlatformInternalAccounts({}, p);
    expect(h.ledger.calls.at(-1)).toEqual(platformAccounts.accounts.map((a) => a.id));
    await h.stop();
  });

  test('an empty page asks the ledger nothing', async () => {
    const h = await startAccountsService();
    const p = await h.newPlatform();
    h.ledger.calls.length = 0;
    expect((await h.client.listInternalAccounts({ limit: 0 }, p)).accounts).toEqual([]);
    expect(h.ledger.calls).toEqual([]);
    await h.stop();
  });

  test('a quotes-transactions deployment without LedgerService: the stored balances stand', async () => {
    const h = await startAccountsService({}, { ledger: false });
    const p = await h.newPlatform();
    const { accounts } = await h.client.listPlatformInternalAccounts({ currency: 'USD' }, p);
    expect(accounts.map((a) => [a.balance!.amount, a.totalBalance!.amount])).toEqual([[0, 0]]);
    await h.stop();
  });
});
