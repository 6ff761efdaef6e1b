import { externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  expectError,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
  balanceOf,
} from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

describe('GET /uma-providers', () => {
  test('the sandbox list, filtered by region, currency and allowlist, sorted and walked page by page', async () => {
    const all = await sys.api('/uma-providers');
    expect(all.status).toBe(200);
    expect(all.body.totalCount).toBe(4);
    expect(all.body.data.map((p: { name: string }) => p.name)).toEqual([
      'Sandbox LatAm Wallet',
      'Sandbox Euro Pay',
      'Sandbox Blocked VASP',
      'Grid Sandbox',
    ]);
    expect((await sys.api('/uma-providers?sortOrder=asc')).body.data[0].name).toBe('Grid Sandbox');
    expect((await sys.api('/uma-providers?countryCode=mx')).body.data.map((p: { name: string }) => p.name)).toEqual([
      'Sandbox LatAm Wallet',
      'Grid Sandbox',
    ]);
    expect((await sys.api('/uma-providers?currencyCode=EUR')).body.data.map((p: { domain: string }) => p.domain))
      .toEqual(['eu.sandbox.grid.uma.money', 'sandbox.grid.uma.money']);
    expect(
      (await sys.api('/uma-providers?hasBlockedProviders=false')).body.data.every((p: { allowListStatus: boolean }) =>
        p.allowListStatus
      ),
    ).toBe(true);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await sys.api(`/uma-providers?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      names.push(...page.body.data.map((p: { name: string }) => p.name));
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
    } while (cursor);
    expect(names).toEqual(all.body.data.map((p: { name: string }) => p.name));
    expectError(await sys.api('/uma-providers?sortOrder=sideways'), 400, 'INVALID_INPUT');
    expectError(await sys.api('/uma-providers?cursor=%%%'), 400, 'INVALID_INPUT');
  });

  test('every listed provider and currency is answered by the sandbox counterparty of receiver lookups', async () => {
    const { customerId } = await payingCustomer(sys);
    const providers = (await sys.api('/uma-providers?hasBlockedProviders=false')).body.data;
    for (const p of providers) {
      for (const c of p.supportedCurrencies) {
        const lookup = await sys.api(
          `/receiver/uma/${
            encodeURIComponent(`$someone.${c.code.toLowerCase()}@${p.domain}`)
          }?customerId=${customerId}`,
        );
        expect([p.domain, c.code, lookup.status]).toEqual([p.domain, c.code, 200]);
        expect(lookup.body.supportedCurrencies.map((s: { currency: { code: string } }) => s.currency.code)).toContain(
          c.code,
        );
      }
    }
  });
});

describe('GET /discoveries', () => {
  test('every sandbox corridor appears, filtered by country and currency', async () => {
    const all = (await sys.api('/discoveries')).body.data as Array<
      { bankName: string; country: string; currency: string }
    >;
    expect(new Set(all.map((d) => d.currency))).toEqual(new Set(['USD', 'MXN', 'EUR', 'BRL', 'INR']));
    const mx = (await sys.api('/discoveries?country=MX&currency=MXN')).body.data;
    expect(mx.length).toBeGreaterThan(0);
    expect(mx.every((d: { country: string; currency: string }) => d.country === 'MX' && d.currency === 'MXN')).toBe(
      true,
    );
    expect((await sys.api('/discoveries?country=PH')).body.data).toEqual([]);
  });

  test('an external account created with a listed bankName is accepted', async () => {
    const { customerId } = await payingCustomer(sys);
    const banks = (await sys.api('/discoveries')).body.data.filter((d: { currency: string }) =>
      d.currency === 'USD' || d.currency === 'INR'
    );
    for (const { bankName, currency } of banks) {
      const variant = currency === 'USD' ? 'USD_ACCOUNT' : 'INR_ACCOUNT';
      const body = externalAccountBody(variant, { customerId });
      const res = await sys.api('/customers/external-accounts', {
        method: 'POST',
        json: {
          ...body,
          accountInfo: {
            ...body.accountInfo,
            bankName,
            ...(variant === 'INR_ACCOUNT'
              ? { accountNumber: `${Math.floor(Math.random() * 1e12)}`.padStart(12, '1') }
              : { accountNumber: `${Math.floor(Math.random() * 1e9)}` }),
          },
        },
      });
      expect([bankName, res.status]).toEqual([bankName, 201]);
      expect(res.body.accountInfo.bankName).toBe(bankName);
    }
  });
});

describe('POST /crypto/estimate-withdrawal-fee', () => {
  async function usdcAccount() {
    const payer = await payingCustomer(sys);
    const usdc = (await sys.api(`/customers/internal-accounts?customerId=${payer.customerId}&currency=USDC`)).body
      .data[0].id as string;
    return { ...payer, usdc };
  }

  test('the estimate is what a withdrawal of that amount then charges', async () => {
    const { customerId, usdc } = await usdcAccount();
    await fund(sys, usdc, 50_000_000);
    const body = externalAccountBody('SOLANA_WALLET', { customerId });
    const wallet = (await sys.api('/customers/external-accounts', { method: 'POST', json: body })).body;
    const estimate = await sys.api('/crypto/estimate-withdrawal-fee', {
      method: 'POST',
      json: {
        internalAccountId: usdc,
        currency: 'USDC',
        cryptoNetwork: 'SOLANA',
        amount: 10_000_000,
        destinationAddress: wallet.accountInfo.address,
      },
    });
    expect(estimate.status).toBe(200);
    expect(estimate.body).toEqual({
      networkFee: 5_000,
      networkFeeAsset: 'SOL',
      applicationFee: 0,
      totalFee: 1_000,
      netAmount: 9_999_000,
    });
    const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdc, wallet.id, 10_000_000) });
    expect(quote.status).toBe(201);
    expect({
      fees: quote.body.feesIncluded,
      received: quote.body.totalReceivingAmount,
      sent: quote.body.totalSendingAmount,
    })
      .toEqual({ fees: estimate.body.totalFee, received: estimate.body.netAmount, sent: 10_000_000 });
    const before = await balanceOf(sys, customerId, usdc);
    const executed = await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' });
    const done = await transactionWhen(sys, executed.body.transactionId, (t) => t.status === 'COMPLETED');
    expect(done.receivedAmount.amount).toBe(estimate.body.netAmount);
    expect(await balanceOf(sys, customerId, usdc)).toBe(before - 10_000_000);
  });

  test('a USD-priced network (Ethereum) is converted to the withdrawal currency, rounded up', async () => {
    const { usdc } = await usdcAccount();
    const res = await sys.api('/crypto/estimate-withdrawal-fee', {
      method: 'POST',
      json: {
        internalAccountId: usdc,
        currency: 'USDC',
        cryptoNetwork: 'ETHEREUM',
        amount: 2_000_000,
        destinationAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      },
    });
    expect(res.body).toEqual({
      networkFee: 150_000_000_000_000,
      networkFeeAsset: 'ETH',
      applicationFee: 0,
      totalFee: 450_000,
      netAmount: 1_550_000,
    });
  });

  test(
    'errors: unknown account 404, a fiat account or another currency '
      + 'INVALID_CURRENCY, bad members INVALID_INPUT, fees above the amount INVALID_AMOUNT',
    async () => {
      const { usdc, usdAccountId } = await usdcAccount();
      const ask = (json: Record<string, unknown>) =>
        sys.api('/crypto/estimate-withdrawal-fee', {
          method: 'POST',
          json: {
            internalAccountId: usdc,
            currency: 'USDC',
            cryptoNetwork: 'SOLANA',
            amount: 1_000_000,
            destinationAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
            ...json,
          },
        });
      expectError(
        await ask({ internalAccountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' }),
        404,
        'REFERENCE_NOT_FOUND',
      );
      expectError(await ask({ internalAccountId: usdAccountId, currency: 'USD' }), 400, 'INVALID_CURRENCY');
      expectError(await ask({ currency: 'USDT' }), 400, 'INVALID_CURRENCY');
      const invalid = await ask({ cryptoNetwork: 'DOGECHAIN', destinationAddress: 'x' });
      expectError(invalid, 400, 'INVALID_INPUT');
      expect(invalid.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'cryptoNetwork',
        'destinationAddress',
      ]);
      expectError(await ask({ amount: 0 }), 400, 'INVALID_INPUT');
      expectError(await ask({ cryptoNetwork: 'BITCOIN', amount: 100 }), 400, 'INVALID_AMOUNT');
    },
  );
});
