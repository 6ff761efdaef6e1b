import { sandboxUmaReceiver } from './sandbox-uma-receivers';

test.each([
  ['$maria@uma.example.com', 'USD', { kind: 'accepted' }],
  ['$maria.mxn@uma.example.com', 'MXN', { kind: 'accepted' }],
  ['$Maria.EUR@uma.example.com', 'EUR', { kind: 'accepted' }],
  ['$maria.lopez@uma.example.com', 'USD', { kind: 'accepted' }],
  ['$sandbox.not.found@uma.example.com', 'USD', { kind: 'refused', code: 'UMA_NOT_FOUND' }],
  ['$Sandbox.Not.Found.mxn@uma.example.com', 'MXN', { kind: 'refused', code: 'UMA_NOT_FOUND' }],
  ['$sandbox.unsupported.version@uma.example.com', 'USD', { kind: 'refused', code: 'UNSUPPORTED_UMA_VERSION' }],
  ['$sandbox.lookup.failed@uma.example.com', 'USD', { kind: 'refused', code: 'LOOKUP_REQUEST_FAILED' }],
  ['$sandbox.pubkey.fetch.error@uma.example.com', 'USD', { kind: 'refused', code: 'COUNTERPARTY_PUBKEY_FETCH_ERROR' }],
  ['$sandbox.no.compatible.version@uma.example.com', 'USD', { kind: 'refused', code: 'NO_COMPATIBLE_UMA_VERSION' }],
  ['$sandbox.lnurlp.failed@uma.example.com', 'USD', { kind: 'refused', code: 'LNURLP_REQUEST_FAILED' }],
  ['$sandbox.internal.error@uma.example.com', 'USD', { kind: 'crashed' }],
  ['$sandbox.not.found.too@uma.example.com', 'USD', { kind: 'accepted' }],
])('%s takes %s: %o', (address, currency, outcome) => {
  const receiver = sandboxUmaReceiver(address);
  expect(receiver.currency).toBe(currency);
  expect(receiver.outcome).toMatchObject(outcome);
});
