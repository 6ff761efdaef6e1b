import { AppError, type FieldError } from '../../../../lib/errors';
import type { RateSource } from '../../rates/adapters/rate-source';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { platformFeeRule, serviceFeeRule } from '../domain/fees';
import { FEE_NETWORKS } from '../domain/network-fees';
import { price } from '../domain/pricing';
import { networkFeeCharge } from './network-fee';
import type { Caller, PaymentAccounts } from '../../shared/app/payment-accounts';
import type { PaymentSettingsSource } from '../../shared/app/payment-settings';

export interface WithdrawalFeeRequest {
  internalAccountId?: string;
  currency?: string;
  cryptoNetwork?: string;
  amount?: number;
  destinationAddress?: string;
}

export interface WithdrawalFeeEstimate {
  networkFee: number;
  networkFeeAsset: string;
  applicationFee: number;
  totalFee: number;
  netAmount: number;
}

const CRYPTO_CURRENCIES = new Set(['USDC', 'USDT', 'BTC']);
const ADDRESS = /^[A-Za-z0-9:._-]{10,128}$/;

function checked(r: WithdrawalFeeRequest) {
  const errors: FieldError[] = [];
  const required = (field: keyof WithdrawalFeeRequest) =>
    r[field] === undefined || r[field] === '' ? (errors.push({ field, message: 'is required' }), false) : true;
  if (required('internalAccountId') && !r.internalAccountId!.startsWith('InternalAccount:')) {
    errors.push({ field: 'internalAccountId', message: 'must be an InternalAccount id' });
  }
  required('currency');
  if (required('cryptoNetwork') && !FEE_NETWORKS.includes(r.cryptoNetwork!)) {
    errors.push({
      field: 'cryptoNetwork',
      message: `must be one of ${FEE_NETWORKS.join(', ')}`,
      constraint: { enum: [...FEE_NETWORKS] },
    });
  }
  if (required('amount') && !(Number.isSafeInteger(r.amount) && r.amount! > 0)) {
    errors.push({ field: 'amount', message: 'must be a positive integer (minor units)' });
  }
  if (required('destinationAddress') && !ADDRESS.test(r.destinationAddress!)) {
    errors.push({ field: 'destinationAddress', message: 'must be a blockchain address' });
  }
  if (errors.length) throw AppError.invalidInput('Invalid withdrawal', errors);
  return r as Required<WithdrawalFeeRequest>;
}

/**
 * The fees of withdrawing `amount` from a crypto internal account to an address on `cryptoNetwork`,
 * priced by the very function a quote to a wallet on that network uses (same-currency: the network
 * fee as the service fee's fixed part, plus any platform fee), so the quote charges what this says.
 */
export function createEstimateWithdrawalFee(
  deps: { accounts: PaymentAccounts; rates: RateSource; settings: PaymentSettingsSource },
) {
  return async function estimateWithdrawalFee(
    caller: Caller,
    request: WithdrawalFeeRequest,
  ): Promise<WithdrawalFeeEstimate> {
    const r = checked(request);
    const account = await deps.accounts.internalAccount(caller, r.internalAccountId);
    if (!account) throw new AppError('REFERENCE_NOT_FOUND', `Internal account ${r.internalAccountId} not found`);
    if (account.currency !== r.currency) {
      throw new AppError('INVALID_CURRENCY', `The account holds ${account.currency}, not ${r.currency}`, {
        field: 'currency',
      });
    }
    if (!CRYPTO_CURRENCIES.has(account.currency)) {
      throw new AppError(
        'INVALID_CURRENCY',
        `The account holds ${account.currency}: only crypto accounts (${
          [...CRYPTO_CURRENCIES].join(', ')
        }) withdraw to an address`,
      );
    }
    const currency = findCurrency(account.currency)!;
    const network = (await networkFeeCharge(deps.rates, r.cryptoNetwork, currency.code))!;
    const settings = await deps.settings.get(caller);
    const priced = price({
      lockedSide: 'SENDING',
      lockedAmount: r.amount,
      sendingDecimals: currency.decimals,
      receivingDecimals: currency.decimals,
      exchangeRate: 1,
      serviceFee: serviceFeeRule(false, network.inSending),
      platformFee: platformFeeRule({
        sendingCurrency: currency.code,
        crossCurrency: false,
        configs: settings.feeConfigs,
      }),
    });
    return {
      networkFee: network.fee.amount,
      networkFeeAsset: network.fee.asset,
      applicationFee: priced.fees.total - network.inSending,
      totalFee: priced.fees.total,
      netAmount: priced.totalReceiving,
    };
  };
}

export type EstimateWithdrawalFee = ReturnType<typeof createEstimateWithdrawalFee>;
