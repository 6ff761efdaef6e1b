import { Type } from '@sinclair/typebox';
import { CurrencyAmount } from './account-records';
import { CARD_TRANSACTION_STATUSES } from './card-types';
import { ClosedObject, DateTime, Id, named, StringEnum } from './schema-kit';

/*
 * The REST card records, as responses and CARD_TRANSACTION.* webhooks carry them (the gateway's
 * contract adds the operations). card-transaction-json.ts writes them by these schemas.
 */

const Tally = (name: string) =>
  named(name, ClosedObject({ count: Type.Integer({ minimum: 0 }), totalAmount: Type.Integer({ minimum: 0 }) }));

/** The reference's CardTransaction (CARD_TRANSACTION.* webhooks). */
export const CardTransaction = named(
  'CardTransaction',
  ClosedObject({
    type: StringEnum(['CARD'] as const),
    id: Id('CardTransaction'),
    cardId: Id('Card'),
    customerId: Type.String(),
    platformCustomerId: Type.String(),
    issuerTransactionToken: Type.Optional(Type.String()),
    status: named('CardTransactionStatus', StringEnum(CARD_TRANSACTION_STATUSES)),
    direction: StringEnum(['DEBIT', 'CREDIT'] as const),
    merchant: named(
      'CardMerchant',
      ClosedObject({
        descriptor: Type.String(),
        mcc: Type.Optional(Type.String()),
        country: Type.Optional(Type.String()),
      }),
    ),
    authorizedAmount: CurrencyAmount,
    settledAmount: Type.Optional(CurrencyAmount),
    refundedAmount: Type.Optional(CurrencyAmount),
    accountId: Type.String({ description: 'The funding source that held the authorization' }),
    pullSummary: named(
      'CardPullSummary',
      ClosedObject({
        count: Type.Integer({ minimum: 0 }),
        totalAmount: Type.Integer({ minimum: 0 }),
        pendingCount: Type.Optional(Type.Integer({ minimum: 0 })),
      }),
    ),
    refundSummary: Tally('CardRefundSummary'),
    settlementSummary: Tally('CardSettlementSummary'),
    authorizedAt: DateTime(),
    lastEventAt: Type.Optional(DateTime()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);
