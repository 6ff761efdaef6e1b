import { AppError } from '../../../../lib/errors';
import type { ReceivingDestination } from '../domain/receiving-destination';
import { createSandboxCounterparty } from './counterparty';

const counterparty = createSandboxCounterparty();

function destination(beneficiaryName?: string): ReceivingDestination {
  return {
    accountId: 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965',
    accountType: 'MXN_ACCOUNT',
    country: 'MX',
    currency: 'MXN',
    beneficiaryName,
  };
}

test('an ordinary account receives its own currency and asks for nothing extra', async () => {
  await expect(counterparty.lookup({ destination: destination('Ana Ruiz'), sender: {} })).resolves.toEqual({
    currencies: ['MXN'],
    requiredPayerData: [],
  });
  await expect(counterparty.lookup({ destination: destination(), sender: {} })).resolves.toEqual({
    currencies: ['MXN'],
    requiredPayerData: [],
  });
});

test.each([
  ['Sandbox Unsupported Version', 'UNSUPPORTED_UMA_VERSION'],
  ['Sandbox Lookup Failed', 'LOOKUP_REQUEST_FAILED'],
  ['Sandbox Pubkey Fetch Error', 'COUNTERPARTY_PUBKEY_FETCH_ERROR'],
  ['Sandbox No Compatible Version', 'NO_COMPATIBLE_UMA_VERSION'],
  ['Sandbox Lnurlp Failed', 'LNURLP_REQUEST_FAILED'],
  ['sandbox lnurlp FAILED', 'LNURLP_REQUEST_FAILED'],
])('beneficiary "%s" is refused with %s', async (name, code) => {
  const err = await counterparty.lookup({ destination: destination(name), sender: {} }).catch((e) => e);
  expect(err).toBeInstanceOf(AppError);
  expect(err.code).toBe(code);
});

test('beneficiary "Sandbox Internal Error" breaks the call with a plain error', async () => {
  const err = await counterparty.lookup({ destination: destination('Sandbox Internal Error'), sender: {} }).catch((e) =>
    e
  );
  expect(err).toBeInstanceOf(Error);
  expect(err).not.toBeInstanceOf(AppError);
});

test('a name merely containing a magic name is accepted', async () => {
  await expect(counterparty.lookup({ destination: destination('Not Sandbox Lookup Failed'), sender: {} })).resolves
    .toMatchObject({ currencies: ['MXN'] });
});
