import {
  EXTERNAL_ACCOUNT_TYPE_NAMES,
  EXTERNAL_ACCOUNT_TYPES,
  type AccountTypeSpec,
  type ExternalAccountType,
} from '../../lib/contract/external-account-types';
import { externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { apiUrl } from '../contract/response-contract';
import { referenceProblems } from '../contract/reference-contract';
import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, FAST_SETTLEMENT, fund, payingCustomer, transactionWhen } from './payments-fixtures';

/*
 * Every account type of the reference: created from a valid example, refused with every broken member listed, paid to
 * COMPLETED.
 */

let sys: TestSystem;
let customerId: string;
let usdAccountId: string;

beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
  ({ customerId, usdAccountId } = await payingCustomer(sys));
  await fund(sys, usdAccountId, 10_000_000);
}, 120_000);
afterAll(() => sys?.stop());

/** Each member of the type made to break its format, and the beneficiary's name emptied. */
function broken(type: ExternalAccountType): { accountInfo: Record<string, unknown>; fields: string[] } {
  const spec: AccountTypeSpec = EXTERNAL_ACCOUNT_TYPES[type];
  const accountInfo: Record<string, unknown> = { ...externalAccountBody(type).accountInfo };
  const fields: string[] = [];
  for (const [member, rule] of Object.entries(spec.members)) {
    if (rule.enum) accountInfo[member] = 'NOT_LISTED';
    else if (rule.minLength || rule.pattern) accountInfo[member] = '';
    else if (rule.maxLength) accountInfo[member] = 'x'.repeat(rule.maxLength + 1);
    else continue;
    fields.push(`accountInfo.${member}`);
  }
  if (spec.beneficiary) {
    accountInfo.beneficiary = { ...(accountInfo.beneficiary as object), fullName: '', legalName: '' };
    fields.push(
      `accountInfo.beneficiary.${
        (accountInfo.beneficiary as { beneficiaryType: string }).beneficiaryType === 'BUSINESS'
          ? 'legalName'
          : 'fullName'
      }`,
    );
  }
  return { accountInfo, fields };
}

test('the published document enumerates every type, each with its members', async () => {
  const doc = (await fetch(`${sys.rootUrl}/openapi.json`).then((r) => r.json())) as any;
  const union = doc.components.schemas.ExternalAccountCreateInfoOneOf;
  expect(union.properties.accountType.enum).toEqual(EXTERNAL_ACCOUNT_TYPE_NAMES);
  expect(Object.keys(union.discriminator.mapping).sort()).toEqual([...EXTERNAL_ACCOUNT_TYPE_NAMES].sort());
  expect(union.oneOf).toHaveLength(46);
  expect(doc.components.schemas.GbpExternalAccountCreateInfo.required).toEqual([
    'accountType',
    'sortCode',
    'accountNumber',
    'beneficiary',
  ]);
});

test.each(EXTERNAL_ACCOUNT_TYPE_NAMES)(
  '%s: created as the reference describes it, refused listing each broken member, paid to COMPLETED',
  async (type) => {
    const body = { ...externalAccountBody(type), customerId };
    const created = await sys.api('/customers/external-accounts', { method: 'POST', json: body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ currency: body.currency, accountInfo: { accountType: type } });
    expect(referenceProblems('POST', apiUrl('/customers/external-accounts'), 201, created.body)).toEqual([]);

    const { accountInfo, fields } = broken(type);
    const refused = await sys.api('/customers/external-accounts', { method: 'POST', json: { ...body, accountInfo } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INVALID_INPUT');
    expect(refused.body.details.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(fields));

    const quote = await sys.api('/quotes', {
      method: 'POST',
      json: accountQuote(usdAccountId, created.body.id, 5_000, { immediatelyExecute: true }),
    });
    expect(quote.status).toBe(201);
    expect(quote.body.receivingCurrency.code).toBe(body.currency);
    expect(quote.body.totalReceivingAmount).toBeGreaterThan(0);
    const paid = await transactionWhen(
      sys,
      quote.body.transactionId,
      (t) => t.status === 'COMPLETED' || t.status === 'FAILED',
    );
    expect(paid.status).toBe('COMPLETED');
  },
);
