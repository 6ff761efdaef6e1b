import { AppError } from '../../../../lib/errors';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { cryptoNetworkOf, FUNDING_NETWORKS } from '../domain/crypto-networks';
import type { PaymentDestination, PaymentSource } from '../domain/payment';
import type { QuoteDestinationRequest, QuoteSourceRequest } from '../domain/quote-request';
import type {
  Caller,
  CustomerInfo,
  PartiesQuery,
  PartiesSnapshot,
  PaymentAccounts,
} from '../../shared/app/payment-accounts';
import type { PaymentSettings } from '../../shared/app/payment-settings';

export interface Parties {
  source: PaymentSource;
  destination: PaymentDestination;
  /** The customer the payment belongs to; the platform id for the platform's own payments. */
  customerId: string;
  platformCustomerId: string;
  sender?: CustomerInfo;
  /** Verification status of an external destination. */
  destinationStatus?: string;
}

/**
 * A caller's own check of the parties, run on the same read before the quote's checks (an agent's:
 * both ends belong to its customer), so that it costs no read of its own.
 */
export type PartiesCheck = (snapshot: PartiesSnapshot) => void;

/** The single-record reads resolving the parties makes, answered from one prefetched snapshot. */
type PartyReader = Pick<PaymentAccounts, 'internalAccount' | 'externalAccount' | 'customer'>;

const invalid = (field: string, message: string) => AppError.invalidInput(message, [{ field, message }]);

export function requireCurrency(code: string, what: string): void {
  if (!findCurrency(code)) throw new AppError('INVALID_CURRENCY', `${what} ${code} is not supported`);
}

async function owner(
  accounts: PartyReader,
  caller: Caller,
  customerId: string | undefined,
): Promise<CustomerInfo | undefined> {
  if (!customerId) return undefined;
  const customer = await accounts.customer(caller, customerId);
  if (!customer) throw new AppError('USER_NOT_FOUND', `Customer ${customerId} not found`);
  return customer;
}

async function resolveSource(accounts: PartyReader, caller: Caller, s: QuoteSourceRequest) {
  if (s.sourceType === 'REALTIME_FUNDING') {
    requireCurrency(s.currency, 'Funding currency');
    if (s.cryptoNetwork && !(FUNDING_NETWORKS as readonly string[]).includes(s.cryptoNetwork)) {
      throw invalid('source.cryptoNetwork', `must be one of ${FUNDING_NETWORKS.join(', ')}`);
    }
    return { source: { ...s } as PaymentSource, sender: await owner(accounts, caller, s.customerId) };
  }
  const internal = s.accountId.startsWith('InternalAccount:');
  const account = internal
    ? await accounts.internalAccount(caller, s.accountId)
    : await accounts.externalAccount(caller, s.accountId);
  if (!account) {
    throw new AppError('REFERENCE_NOT_FOUND', `${internal ? 'Internal' : 'External'} account ${s.accountId} not found`);
  }
  if (internal && account.status !== 'ACTIVE') {
    throw invalid('source.accountId', `The source account is ${account.status}`);
  }
  if (s.customerId && account.customerId && s.customerId !== account.customerId) {
    throw invalid('source.customerId', 'is not the owner of the source account');
  }
  const type = 'type' in account ? account.type : undefined;
  const source: PaymentSource = {
    sourceType: 'ACCOUNT',
    accountId: account.id,
    accountKind: internal ? 'INTERNAL' : 'EXTERNAL',
    currency: account.currency,
    ...(type ? { internalType: type } : {}),
    ...(account.customerId ? { customerId: account.customerId } : {}),
  };
  return { source, sender: await owner(accounts, caller, account.customerId ?? s.customerId) };
}

async function resolveDestination(accounts: PartyReader, caller: Caller, d: QuoteDestinationRequest) {
  if (d.destinationType === 'UMA_ADDRESS') {
    return {
      destination: {
        destinationType: 'UMA_ADDRESS',
        umaAddress: d.umaAddress,
        currency: d.currency ?? '',
      } as PaymentDestination,
    };
  }
  if (d.accountId.startsWith('InternalAccount:')) {
    const account = await accounts.internalAccount(caller, d.accountId);
    if (!account) throw new AppError('REFERENCE_NOT_FOUND', `Internal account ${d.accountId} not found`);
    if (account.status !== 'ACTIVE') {
      throw invalid('destination.accountId', `The destination account is ${account.status}`);
    }
    return {
      destination: {
        destinationType: 'ACCOUNT',
        accountId: account.id,
        accountKind: 'INTERNAL',
        currency: account.currency,
      } as PaymentDestination,
    };
  }
  const account = await accounts.externalAccount(caller, d.accountId);
  if (!account) throw new AppError('REFERENCE_NOT_FOUND', `External account ${d.accountId} not found`);
  if (account.status === 'INACTIVE') throw invalid('destination.accountId', 'The destination account is inactive');
  if (d.paymentRail && account.paymentRails.length && !account.paymentRails.includes(d.paymentRail)) {
    throw invalid('destination.paymentRail', `must be one of the account's rails: ${account.paymentRails.join(', ')}`);
  }
  const network = cryptoNetworkOf(account.accountType);
  const destination: PaymentDestination = {
    destinationType: 'ACCOUNT',
    accountId: account.id,
    accountKind: 'EXTERNAL',
    currency: account.currency,
    ...(d.paymentRail ? { paymentRail: d.paymentRail } : {}),
    ...(network ? { cryptoNetwork: network } : {}),
  };
  return { destination, destinationStatus: account.status };
}

/**
 * Every record resolving `request` may read: both ends, the customer named, and (by the query) the owners of the
 * accounts.
 */
export function partiesQuery(
  request: { source: QuoteSourceRequest; destination: QuoteDestinationRequest },
  withSettings: boolean,
): PartiesQuery {
  const query: PartiesQuery = { internalAccountIds: [], externalAccountIds: [], customerIds: [], withSettings };
  const account = (id: string) =>
    (id.startsWith('InternalAccount:') ? query.internalAccountIds : query.externalAccountIds).push(id);
  if (request.source.sourceType === 'ACCOUNT') account(request.source.accountId);
  if (request.source.customerId) query.customerIds.push(request.source.customerId);
  if (request.destination.destinationType === 'ACCOUNT') account(request.destination.accountId);
  return query;
}

function readerOf(snapshot: Promise<PartiesSnapshot>): PartyReader {
  return {
    internalAccount: async (_caller, id) => (await snapshot).internalAccounts.get(id) ?? null,
    externalAccount: async (_caller, id) => (await snapshot).externalAccounts.get(id) ?? null,
    customer: async (_caller, id) => (await snapshot).customers.get(id) ?? null,
  };
}

/**
 * Who pays whom: both ends and the sender, scoped to the caller's platform, read from the accounts
 * service in one call (with `settings`, the platform's payment settings too). The checks run as
 * if each record were read on its own: those on both ends first, then the sender's.
 */
export async function resolveParties(
  accounts: PaymentAccounts,
  caller: Caller,
  request: { source: QuoteSourceRequest; destination: QuoteDestinationRequest },
  options: { settings?: boolean; check?: PartiesCheck } = {},
): Promise<{ parties: Parties; settings?: PaymentSettings }> {
  const snapshot = accounts.parties(caller, partiesQuery(request, options.settings ?? false));
  snapshot.catch(() => undefined); // observed by the reads below; a check failing first must not leave it unhandled
  if (options.check) options.check(await snapshot);
  const reader = readerOf(snapshot);
  const [{ source, sender }, { destination, destinationStatus }] = await Promise.all([
    resolveSource(reader, caller, request.source),
    resolveDestination(reader, caller, request.destination),
  ]);
  const sameAccount = 'accountId' in source && 'accountId' in destination && source.accountId === destination.accountId;
  const ownAddress = destination.destinationType === 'UMA_ADDRESS' && !!sender?.umaAddress
    && sender.umaAddress === destination.umaAddress;
  if (sameAccount || ownAddress) throw new AppError('SELF_PAYMENT', 'The source and the destination are the same');
  if (sender?.kycBlocksPayments) {
    throw new AppError('USER_NOT_READY', `Customer ${sender.id} is not verified to send payments (KYC/KYB)`, {
      customerId: sender.id,
    });
  }
  if (sender && !sender.acceptsCurrentTerms) {
    throw new AppError(
      'END_USER_TERMS_NOT_ACCEPTED',
      `Customer ${sender.id} has not accepted the current End User Terms`,
      { customerId: sender.id },
    );
  }
  const { settings } = await snapshot;
  return {
    parties: {
      source,
      destination,
      sender,
      destinationStatus,
      customerId: sender?.id ?? caller.platformId,
      platformCustomerId: sender?.platformCustomerId ?? caller.platformId,
    },
    ...(settings ? { settings } : {}),
  };
}
