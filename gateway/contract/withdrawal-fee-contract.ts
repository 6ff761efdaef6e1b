import { Type } from '@sinclair/typebox';
import { operation } from './operation';
import { ClosedObject, MinorUnits, named } from './schema-kit';

const EstimateCryptoWithdrawalFeeRequest = named(
  'EstimateCryptoWithdrawalFeeRequest',
  Type.Object({
    internalAccountId: Type.String({ description: 'A crypto internal account (USDC, USDT, BTC)' }),
    currency: Type.String(),
    cryptoNetwork: Type.String({
      description: 'SOLANA, ETHEREUM, BASE, POLYGON, TRON, PLASMA, SPARK, LIGHTNING or BITCOIN',
    }),
    amount: MinorUnits({ minimum: 1 }),
    destinationAddress: Type.String(),
  }),
);

export const EstimateCryptoWithdrawalFeeResponse = named(
  'EstimateCryptoWithdrawalFeeResponse',
  ClosedObject({
    networkFee: Type.Integer({ minimum: 0, description: 'In the smallest unit of networkFeeAsset' }),
    networkFeeAsset: Type.String(),
    applicationFee: Type.Integer({ minimum: 0, description: 'In the smallest unit of the withdrawal currency' }),
    totalFee: Type.Integer({
      minimum: 0,
      description: 'The network fee at the current rate plus the application fee, in the withdrawal currency',
    }),
    netAmount: Type.Integer({ minimum: 1, description: 'What the address receives' }),
  }),
);

export const withdrawalFeeOperations = [
  operation({
    operationId: 'estimateCryptoWithdrawalFee',
    method: 'post',
    path: '/crypto/estimate-withdrawal-fee',
    tags: ['Cross-Currency Transfers'],
    summary: 'The fees a withdrawal from a crypto internal account to a blockchain address will be charged',
    body: EstimateCryptoWithdrawalFeeRequest,
    success: { 200: EstimateCryptoWithdrawalFeeResponse },
    errors: [404],
  }),
];
