import { Type } from '@sinclair/typebox';
import { ExternalAccount, InternalAccount } from '../../gateway/contract/account-contract';
import { Customer } from '../../gateway/contract/customer-contract';
import { Quote, Transaction } from '../../gateway/contract/payment-contract';
import { externalAccountJson, internalAccountJson } from '../../lib/contract/account-json';
import { customerJson } from '../../lib/contract/customer-json';
import { CustomerCreateRequest, CustomerUpdateRequest } from '../../lib/contract/customer-requests';
import { quoteJson, transactionJson } from '../../lib/contract/payment-record-json';
import {
  filledMessage,
  memberProblems,
  protoRegistry,
  renderedProblems,
  type MemberPairing,
  type SchemaNode,
} from './member-recipe';

const registry = protoRegistry();
const message = (typeName: string) => {
  const found = registry.getMessage(typeName);
  if (!found) throw new Error(`no proto message ${typeName}`);
  return found;
};
const schema = (s: unknown) => s as SchemaNode;

/** Members the services never set, each with its reason: no proto field, and no renderer writes them. */
const NOT_CARRIED = {
  'Quote.scaChallenge.passkeyAllowedOrigins': "a quote's challenge does not name the passkey origins",
  'Quote.paymentInstructions.isPlatformAccount': "a quote's instructions never name a platform account",
  'Transaction.paymentInstructions.isPlatformAccount': "a transaction's instructions never name a platform account",
};
/** Members carried under another field or by another RPC, each with how: the renderer still writes them. */
const CARRIED_OTHERWISE = {
  'Customer.beneficialOwners': "a business's owners are read from BeneficialOwnerService, not carried in Customer",
  'Quote.scaChallenge.passkeyAssertionOptions': 'carried as JSON text (passkey_assertion_options_json)',
};
const DIFFER = { ...NOT_CARRIED, ...CARRIED_OTHERWISE };

/** Each REST resource and request of the contract, with the proto message that carries it. */
const PAIRINGS: MemberPairing[] = [
  { name: 'Customer', schema: schema(Customer), message: message('accounts.v1.Customer') },
  {
    name: 'CustomerCreateRequest',
    schema: schema(CustomerCreateRequest),
    message: message('accounts.v1.CustomerFields'),
  },
  {
    name: 'CustomerUpdateRequest',
    schema: schema(CustomerUpdateRequest),
    message: message('accounts.v1.CustomerFields'),
  },
  { name: 'InternalAccount', schema: schema(InternalAccount), message: message('accounts.v1.InternalAccount') },
  { name: 'ExternalAccount', schema: schema(ExternalAccount), message: message('accounts.v1.ExternalAccount') },
  { name: 'Quote', schema: schema(Quote), message: message('quotes_transactions.v1.Quote') },
  { name: 'Transaction', schema: schema(Transaction), message: message('quotes_transactions.v1.Transaction') },
].map((p) => ({ ...p, differ: DIFFER }));

const filled = (typeName: string, overrides: Record<string, unknown> = {}) =>
  filledMessage(message(typeName), overrides) as never;
const owner = () => [filled('accounts.v1.BeneficialOwner')];

/** Each resource's renderer, on messages with every field set (both variants of a union). */
const RENDERED: { name: string; schema: SchemaNode; rendered: () => unknown[] }[] = [
  {
    name: 'Customer',
    schema: schema(Customer),
    rendered: () => [
      customerJson(filled('accounts.v1.Customer', { customerType: 'INDIVIDUAL' })),
      customerJson(filled('accounts.v1.Customer', { customerType: 'BUSINESS' }), owner()),
    ],
  },
  {
    name: 'InternalAccount',
    schema: schema(InternalAccount),
    rendered: () => [internalAccountJson(filled('accounts.v1.InternalAccount'))],
  },
  {
    name: 'ExternalAccount',
    schema: schema(ExternalAccount),
    rendered: () => [externalAccountJson(filled('accounts.v1.ExternalAccount'))],
  },
  {
    name: 'Quote',
    schema: schema(Quote),
    rendered: () => [quoteJson(filled('quotes_transactions.v1.Quote'))],
  },
  {
    name: 'Transaction',
    schema: schema(Transaction),
    rendered: () =>
      ['OUTGOING', 'INCOMING'].map((type) => transactionJson(filled('quotes_transactions.v1.Transaction', { type }))),
  },
];

describe('the "add a member to a resource" recipe', () => {
  it.each(PAIRINGS.map((p) => [p.name, p]))('%s: every member has a proto field of its JSON name', (_name, p) => {
    expect(memberProblems(p)).toEqual([]);
  });

  it.each(RENDERED.map((r) => [r.name, r]))('%s: the renderer writes every member', (_name, r) => {
    expect(renderedProblems({ ...r, rendered: r.rendered(), differ: NOT_CARRIED })).toEqual([]);
  });

  it('names a contract member added without its proto field, at any depth', () => {
    const customer = schema(Customer);
    const withNickname = {
      anyOf: customer.anyOf!.map((variant) => ({
        ...variant,
        properties: {
          ...variant.properties,
          nickname: Type.Optional(Type.String()),
          address: {
            ...variant.properties!.address,
            properties: { ...variant.properties!.address.properties, floor: {} },
          },
        },
      })),
    };
    expect(memberProblems({ ...PAIRINGS[0], schema: withNickname })).toEqual([
      'Customer.address.floor: no field "floor" in accounts.v1.Address',
      'Customer.nickname: no field "nickname" in accounts.v1.Customer',
    ]);
  });

  it('names a member the renderer does not write', () => {
    const { email: _dropped, ...withoutEmail } = customerJson(filled('accounts.v1.Customer')) as Record<
      string,
      unknown
    >;
    const business = customerJson(filled('accounts.v1.Customer', { customerType: 'BUSINESS' }), owner());
    const { email: _also, ...businessWithoutEmail } = business as Record<string, unknown>;
    expect(
      renderedProblems({ name: 'Customer', schema: schema(Customer), rendered: [withoutEmail, businessWithoutEmail] }),
    )
      .toEqual(['Customer.email: not written by the renderer']);
  });

  it('a member listed as differing is not looked for', () => {
    const { differ: _none, ...customer } = PAIRINGS[0];
    expect(memberProblems(customer)).toEqual([
      'Customer.beneficialOwners: no field "beneficialOwners" in accounts.v1.Customer',
    ]);
  });
});
