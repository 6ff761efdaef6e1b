import { referenceProblems } from '../contract/reference-contract';
import { startTestSystem, type TestSystem } from '../system-harness';
import { externalAccount, payingCustomer } from './payments-fixtures';

/**
 * Every 404 the reference documents for an operation we serve answers one of the interface's 404
 * codes (the reference's Error404 enum): the resource's own code where it has one, else
 * REFERENCE_NOT_FOUND; and each answer validates against the reference's schema for it.
 */
let sys: TestSystem;
let customerId: string;
let usdAccountId: string;
let payee: string;
beforeAll(async () => {
  sys = await startTestSystem();
  ({ customerId, usdAccountId } = await payingCustomer(sys));
  payee = await externalAccount(sys, customerId, 'USD_ACCOUNT');
});
afterAll(async () => {
  await sys.stop();
});

const uuid = '00000000-0000-4000-8000-00000000dead';
const missing = (prefix: string) => `${prefix}:${uuid}`;

type Case = [method: string, path: string, code: string, body?: () => unknown];
const CASES: Case[] = [
  ['GET', `/transactions/${missing('Transaction')}`, 'TRANSACTION_NOT_FOUND'],
  [
    'POST',
    `/transactions/${missing('Transaction')}/confirm`,
    'TRANSACTION_NOT_FOUND',
    () => ({ receiptDeliveredAt: new Date().toISOString() }),
  ],
  ['POST', `/transactions/${missing('Transaction')}/approve`, 'TRANSACTION_NOT_FOUND', () => ({})],
  ['POST', `/transactions/${missing('Transaction')}/reject`, 'TRANSACTION_NOT_FOUND', () => ({})],
  ['POST', `/transactions/${missing('Transaction')}/cancel`, 'TRANSACTION_NOT_FOUND', () => ({})],
  ['GET', `/quotes/${missing('Quote')}`, 'QUOTE_NOT_FOUND'],
  ['POST', `/quotes/${missing('Quote')}/execute`, 'QUOTE_NOT_FOUND'],
  ['POST', '/sandbox/send', 'QUOTE_NOT_FOUND', () => ({ quoteId: missing('Quote'), currencyCode: 'USD' })],
  ['GET', `/customers/${missing('Customer')}`, 'USER_NOT_FOUND'],
  [
    'PATCH',
    `/customers/${missing('Customer')}`,
    'USER_NOT_FOUND',
    () => ({ customerType: 'INDIVIDUAL', fullName: 'Ana Lima' }),
  ],
  ['DELETE', `/customers/${missing('Customer')}`, 'USER_NOT_FOUND'],
  ['GET', `/tokens/${missing('Token')}`, 'TOKEN_NOT_FOUND'],
  ['DELETE', `/tokens/${missing('Token')}`, 'TOKEN_NOT_FOUND'],
  ['GET', '/invitations/NOSUCHCODE', 'INVITATION_NOT_FOUND'],
  ['GET', `/customers/bulk/jobs/${missing('BulkUploadJob')}`, 'BULK_UPLOAD_JOB_NOT_FOUND'],
  ['GET', `/customers/external-accounts/${missing('ExternalAccount')}`, 'REFERENCE_NOT_FOUND'],
  ['DELETE', `/customers/external-accounts/${missing('ExternalAccount')}`, 'REFERENCE_NOT_FOUND'],
  ['GET', `/receiver/external-account/${missing('ExternalAccount')}?customerId=CUSTOMER`, 'REFERENCE_NOT_FOUND'],
  [
    'POST',
    '/transfer-out',
    'REFERENCE_NOT_FOUND',
    () => ({ source: { accountId: missing('InternalAccount') }, destination: { accountId: payee }, amount: 100 }),
  ],
  [
    'POST',
    '/transfer-in',
    'REFERENCE_NOT_FOUND',
    () => ({
      source: { accountId: missing('ExternalAccount') },
      destination: { accountId: usdAccountId },
      amount: 100,
    }),
  ],
  [
    'POST',
    `/sandbox/internal-accounts/${missing('InternalAccount')}/fund`,
    'REFERENCE_NOT_FOUND',
    () => ({ amount: 100 }),
  ],
  [
    'POST',
    '/crypto/estimate-withdrawal-fee',
    'REFERENCE_NOT_FOUND',
    () => ({
      internalAccountId: missing('InternalAccount'),
      currency: 'USDC',
      cryptoNetwork: 'ETHEREUM',
      amount: 2_000_000,
      destinationAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    }),
  ],
  ['GET', `/beneficial-owners/${missing('BeneficialOwner')}`, 'REFERENCE_NOT_FOUND'],
  ['GET', `/documents/${missing('Document')}`, 'REFERENCE_NOT_FOUND'],
  ['GET', `/verifications/${missing('Verification')}`, 'REFERENCE_NOT_FOUND'],
  ['GET', `/agents/${missing('Agent')}`, 'REFERENCE_NOT_FOUND'],
  [
    'PATCH',
    `/internal-accounts/${missing('InternalAccount')}`,
    'REFERENCE_NOT_FOUND',
    () => ({ privateEnabled: true }),
  ],
  ['DELETE', `/auth/sessions/${missing('Session')}`, 'REFERENCE_NOT_FOUND'],
];

// Every row has its four members (jest would take a missing last one for a `done` callback).
test.each(CASES.map(([method, path, code, body]) => [method, path, code, body ?? null] as const))(
  '%s %s: 404 %s, valid against the reference',
  async (method, path, code, body) => {
    const res = await sys.api(path.replace('CUSTOMER', customerId), { method, ...(body ? { json: body() } : {}) });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code });
    expect(referenceProblems(method, `/2025-10-13${path.split('?')[0]}`, res.status, res.body)).toEqual([]);
  },
);

test('a path no operation serves stays NOT_FOUND (no reference operation judges it)', async () => {
  const res = await sys.api(`/transactions/${missing('Transaction')}/nothing-here`);
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
});
