import type {
  StablecoinOperationRecord,
  StablecoinProviderAccountRecord,
  StablecoinRecord,
} from '../../gen/quotes_transactions/v1/stablecoins';
import { withoutAbsent } from '../../lib/contract/json-members';

/** The REST StablecoinProviderAccount (never the client id or secret). */
export function stablecoinProviderAccountJson(a: StablecoinProviderAccountRecord) {
  return withoutAbsent({
    id: a.id,
    provider: a.provider,
    providerAccountId: a.providerAccountId,
    providerEnvironment: a.providerEnvironment,
    status: a.status,
    lastVerifiedAt: a.lastVerifiedAt,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  });
}

export function stablecoinJson(s: StablecoinRecord) {
  return withoutAbsent({
    id: s.id,
    name: s.name,
    symbol: s.symbol,
    baseCurrency: s.baseCurrency,
    network: s.network,
    decimals: s.decimals,
    issuanceStatus: s.issuanceStatus,
    gridOperationsStatus: s.gridOperationsStatus,
    networkTokenIdentifier: s.networkTokenIdentifier,
    currency: s.currency,
    provider: s.provider,
    stablecoinProviderAccountId: s.stablecoinProviderAccountId,
    providerEnvironment: s.providerEnvironment,
    providerTokenIdentifier: s.providerTokenIdentifier,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  });
}

export function stablecoinOperationJson(o: StablecoinOperationRecord) {
  return withoutAbsent({
    id: o.id,
    stablecoinId: o.stablecoinId,
    operationType: o.operationType,
    status: o.status,
    amount: o.amount,
    provider: o.provider,
    providerEnvironment: o.providerEnvironment,
    stablecoinProviderAccountId: o.stablecoinProviderAccountId,
    source: o.source ? withoutAbsent({ ...o.source }) : undefined,
    fundingInstructions: Object.keys(o.fundingInstructions).length ? { ...o.fundingInstructions } : undefined,
    destination: o.destination ? withoutAbsent({ ...o.destination }) : undefined,
    estimatedDelivery: o.estimatedDelivery ? { ...o.estimatedDelivery } : undefined,
    expiresAt: o.expiresAt,
    providerStatus: o.providerStatus,
    failureReason: o.failureReason,
    description: o.description,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  });
}
