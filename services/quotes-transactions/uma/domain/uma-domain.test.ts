import { acceptsTimestamp, DEFAULT_REPLAY_WINDOW } from './replay-window';
import { missingPayerData, payerDataFor, payerDataOptionsFor, requiredPayerData } from './payer-data-fields';
import { counterpartyInformationOf } from './uma-payer-data';
import { boundsInOurUnits, msatsPerUnit } from './uma-amounts';
import { receivableAccounts, umaAddressOf, vaspDomainOf } from './uma-receiver';

describe('UMA domain rules', () => {
  const now = new Date('2026-12-04T12:00:00Z');
  const seconds = (d: Date) => d.getTime() / 1000;

  it('accepts a signed timestamp within 5 minutes back and 1 minute ahead', () => {
    expect(acceptsTimestamp(DEFAULT_REPLAY_WINDOW, seconds(now) - 299, now)).toBe(true);
    expect(acceptsTimestamp(DEFAULT_REPLAY_WINDOW, seconds(now) - 301, now)).toBe(false);
    expect(acceptsTimestamp(DEFAULT_REPLAY_WINDOW, seconds(now) + 59, now)).toBe(true);
    expect(acceptsTimestamp(DEFAULT_REPLAY_WINDOW, seconds(now) + 61, now)).toBe(false);
    expect(acceptsTimestamp(DEFAULT_REPLAY_WINDOW, Number.NaN, now)).toBe(false);
  });

  it('reads the VASP domain of an address, a port allowed', () => {
    expect(vaspDomainOf('$bob@localhost:8081')).toBe('localhost:8081');
    expect(vaspDomainOf('$alice@Pay.Example.com')).toBe('pay.example.com');
    expect(vaspDomainOf('bob@pay.example.com')).toBeUndefined();
    expect(vaspDomainOf('$bob@pay.example.com/evil')).toBeUndefined();
    expect(umaAddressOf('$bob', 'localhost:8081')).toBe('$bob@localhost:8081');
  });

  it('receives only for one live holder, in its active accounts', () => {
    const holder = {
      platformId: 'P',
      customerId: 'C',
      platformCustomerId: 'pc',
      isDeleted: false,
      accounts: [{ id: 'A1', currency: 'USD', status: 'ACTIVE' }, { id: 'A2', currency: 'EUR', status: 'CLOSED' }],
    };
    expect(receivableAccounts([holder]).map((a) => a.accountId)).toEqual(['A1']);
    expect(receivableAccounts([{ ...holder, isDeleted: true }])).toEqual([]);
    expect(receivableAccounts([{ ...holder, kycBlocked: true }])).toEqual([]);
    expect(receivableAccounts([holder, { ...holder, platformId: 'Q' }])).toEqual([]);
  });

  it('converts a BTC rate to millisatoshis per smallest unit', () => {
    expect(msatsPerUnit(0.00001, 2)).toBe(10_000);
    expect(msatsPerUnit(1e-12, 2)).toBe(1);
  });

  it("converts a counterparty's bounds to our smallest units, inside what it allows", () => {
    expect(boundsInOurUnits({ min: 250, max: 400_000, decimals: 2 }, 2)).toEqual({ min: 250, max: 400_000 });
    expect(boundsInOurUnits({ min: 1, max: 99, decimals: 0 }, 2)).toEqual({ min: 100, max: 9_900 });
    expect(boundsInOurUnits({ min: 15, max: 1_999, decimals: 3 }, 2)).toEqual({ min: 2, max: 199 });
    expect(boundsInOurUnits({ min: 1, max: 5, decimals: 3 }, 2)).toBeUndefined();
  });

  it('maps payer data both ways, sending only what was asked for', () => {
    const options = {
      name: { mandatory: true },
      email: { mandatory: false },
      identifier: { mandatory: true },
      compliance: { mandatory: true },
    };
    expect(requiredPayerData(options)).toEqual([{ name: 'FULL_NAME', mandatory: true }, {
      name: 'EMAIL',
      mandatory: false,
    }]);
    expect(payerDataFor(options, { FULL_NAME: 'Ana', TAX_ID: 'secret' })).toEqual({ name: 'Ana' });
    expect(missingPayerData(options, {})).toEqual(['FULL_NAME']);
  });

  it("asks for compliance's payer data plus the platform's fields; a field with no UMA key under its own name", () => {
    const options = payerDataOptionsFor([{ name: 'EMAIL', mandatory: true }, { name: 'TAX_ID', mandatory: true }, {
      name: 'IDENTIFIER',
      mandatory: false,
    }]);
    expect(options).toEqual({
      identifier: { mandatory: true },
      compliance: { mandatory: true },
      name: { mandatory: false },
      email: { mandatory: true },
      TAX_ID: { mandatory: true },
    });
    expect(requiredPayerData(options)).toEqual([{ name: 'FULL_NAME', mandatory: false }, {
      name: 'EMAIL',
      mandatory: true,
    }, { name: 'TAX_ID', mandatory: true }]);
    expect(payerDataFor(options, { TAX_ID: '123', EMAIL: 'a@b.c' })).toEqual({ email: 'a@b.c', TAX_ID: '123' });
    expect(missingPayerData(options, { EMAIL: 'a@b.c' })).toEqual(['TAX_ID']);
  });

  it("turns the sender's payer data and travel-rule information into counterparty fields", () => {
    expect(
      counterpartyInformationOf(
        { name: 'Ana', identifier: '$ana@x.com' } as never,
        JSON.stringify({ COUNTRY_OF_RESIDENCE: 'FR', bad_key: 'x', NESTED: { a: 1 } }),
      ),
    )
      .toEqual({ FULL_NAME: 'Ana', COUNTRY_OF_RESIDENCE: 'FR' });
    expect(counterpartyInformationOf(undefined, 'ivms101 blob')).toEqual({ TRAVEL_RULE_INFO: 'ivms101 blob' });
  });
});
