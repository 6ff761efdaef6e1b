import { Type } from '@sinclair/typebox';
import {
  EXTERNAL_ACCOUNT_STATUSES,
  INTERNAL_ACCOUNT_STATUSES,
  INTERNAL_ACCOUNT_TYPES,
  OWNERSHIP_TYPES,
} from './account-vocabulary';
import { ExternalAccountInfo } from './external-account-info-schemas';
import { ClosedObject, DateTime, Id, MinorUnits, named, StringEnum } from './schema-kit';

/*
 * The REST account records, as responses and webhooks carry them (the gateway's contract adds the
 * operations). account-json.ts writes the accounts service's messages by these schemas.
 */

const BENEFICIARY_VERIFICATION = [
  'MATCHED',
  'PARTIAL_MATCH',
  'NOT_MATCHED',
  'UNSUPPORTED',
  'CHECKED_BY_RECEIVING_FI',
  'PENDING',
] as const;

export const Currency = named(
  'Currency',
  ClosedObject({
    code: Type.String({ description: 'ISO 4217 code, or the ticker of a crypto currency' }),
    name: Type.String(),
    symbol: Type.String(),
    decimals: Type.Integer({ minimum: 0 }),
  }),
);

export const CurrencyAmount = named('CurrencyAmount', ClosedObject({ amount: MinorUnits(), currency: Currency }));

/** How to pay into an account: bank details or a wallet address, by `accountType`. */
export const PaymentInstructions = named(
  'PaymentInstructions',
  ClosedObject({
    instructionsNotes: Type.Optional(Type.String()),
    isPlatformAccount: Type.Optional(Type.Boolean()),
    accountOrWalletInfo: Type.Object({ accountType: Type.String() }, {
      additionalProperties: true,
      description: 'Members depend on `accountType`',
    }),
  }),
);

export const InternalAccount = named(
  'InternalAccount',
  ClosedObject({
    id: Id('InternalAccount'),
    customerId: Type.Optional(Id('Customer')),
    type: StringEnum(INTERNAL_ACCOUNT_TYPES),
    status: StringEnum(INTERNAL_ACCOUNT_STATUSES),
    balance: CurrencyAmount,
    totalBalance: CurrencyAmount,
    fundingPaymentInstructions: Type.Array(PaymentInstructions),
    privateEnabled: Type.Optional(
      Type.Boolean({ description: "Embedded wallets: whether the wallet's activity is private" }),
    ),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

export const ExternalAccount = named(
  'ExternalAccount',
  ClosedObject({
    id: Id('ExternalAccount'),
    customerId: Type.Optional(Id('Customer')),
    status: StringEnum(EXTERNAL_ACCOUNT_STATUSES),
    platformAccountId: Type.Optional(Type.String()),
    ownershipType: Type.Optional(StringEnum(OWNERSHIP_TYPES)),
    currency: Type.String(),
    defaultUmaDepositAccount: Type.Optional(Type.Boolean()),
    beneficiaryVerificationStatus: Type.Optional(StringEnum(BENEFICIARY_VERIFICATION)),
    accountInfo: ExternalAccountInfo,
  }),
);
