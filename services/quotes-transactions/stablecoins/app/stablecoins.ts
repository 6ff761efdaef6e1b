import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { DuplicateKeyError } from '../../../../lib/store/document-store';
import { pageQuery } from '../../../../lib/page-cursor';
import {
  gridOperationsStatusOf,
  issuanceSettled,
  type IssuanceStatus,
  type ProviderAccountStatus,
} from '../domain/stablecoin-operation';
import type { Caller } from '../../shared/app/payment-accounts';
import type { ProviderAccounts } from './provider-accounts';
import {
  ProviderCredentialsRevoked,
  ProviderRejected,
  ProviderUnavailable,
  type Page,
  type StablecoinProvider,
  type StablecoinRecord,
  type StablecoinStore,
} from './stablecoin-ports';

export interface RegisterRequest {
  providerTokenIdentifier: string;
  networkTokenIdentifier: string;
  network: string;
  stablecoinProviderAccountId?: string;
}

/** Registered stablecoins: tokens the provider already issues, linked to Grid (never created here). */
export function createStablecoins(
  deps: { store: StablecoinStore; provider: StablecoinProvider; accounts: ProviderAccounts; clock: () => Date },
) {
  async function register(caller: Caller, request: RegisterRequest): Promise<StablecoinRecord> {
    const errors = [];
    if (request.network !== 'SPARK') errors.push({ field: 'network', message: 'must be SPARK' });
    if (!request.providerTokenIdentifier.trim()) {
      errors.push({ field: 'providerTokenIdentifier', message: 'is required' });
    }
    if (!request.networkTokenIdentifier.trim()) {
      errors.push({ field: 'networkTokenIdentifier', message: 'is required' });
    }
    if (errors.length) throw AppError.invalidInput('Invalid stablecoin registration', errors);
    const account = await deps.accounts.usable(caller, request.stablecoinProviderAccountId);
    const token = await deps.accounts.calling(
      account,
      () =>
        deps.provider.token(
          deps.accounts.credentialsOf(account),
          account.providerAccountId,
          request.providerTokenIdentifier,
        ),
    )
      .catch((err: unknown) => {
        if (err instanceof ProviderCredentialsRevoked) {
          throw new AppError(
            'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
            `Stablecoin provider account ${account.id} has been revoked at the provider`,
          );
        }
        if (err instanceof ProviderUnavailable) {
          throw new AppError('UNAVAILABLE', 'The stablecoin provider is temporarily unavailable; retry later');
        }
        if (err instanceof ProviderRejected) {
          throw new AppError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', `The provider refused the request: ${err.message}`);
        }
        throw err;
      });
    if (!token) {
      throw AppError.invalidInput('Unknown provider token', [{
        field: 'providerTokenIdentifier',
        message: `the provider account issues no token ${request.providerTokenIdentifier}`,
      }]);
    }
    const now = deps.clock().toISOString();
    const record: StablecoinRecord = {
      id: newId('Stablecoin'),
      platformId: caller.platformId,
      name: token.name,
      symbol: token.symbol,
      baseCurrency: token.baseCurrency,
      network: 'SPARK',
      decimals: token.decimals,
      issuanceStatus: token.issuanceStatus,
      ...gridStatusOf(token.issuanceStatus, account.status, token.symbol),
      networkTokenIdentifier: request.networkTokenIdentifier,
      provider: 'BRALE',
      stablecoinProviderAccountId: account.id,
      providerEnvironment: account.providerEnvironment,
      providerTokenIdentifier: request.providerTokenIdentifier,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await deps.store.insertStablecoin(record);
    } catch (err) {
      if (err instanceof DuplicateKeyError) {
        throw new AppError(
          'CONFLICT',
          `${request.providerTokenIdentifier} is already registered with this provider account`,
        );
      }
      throw err;
    }
    return record;
  }

  /**
   * The stablecoin as of now: a token under the provider's review is read again, and a link's revocation disables it.
   */
  async function get(caller: Caller, id: string): Promise<StablecoinRecord> {
    const record = await deps.store.stablecoin(caller.platformId, id);
    if (!record) throw AppError.notFound(`Stablecoin ${id}`);
    const link = await deps.accounts.byId(record.platformId, record.stablecoinProviderAccountId);
    let issuanceStatus = record.issuanceStatus;
    if (!issuanceSettled(issuanceStatus) && link.status === 'ACTIVE') {
      const token = await deps.accounts.calling(
        link,
        () =>
          deps.provider.token(
            deps.accounts.credentialsOf(link),
            link.providerAccountId,
            record.providerTokenIdentifier,
          ),
      )
        .catch(() => 'unread' as const);
      // Unreachable or refusing provider: left as it was. A token gone from the provider failed.
      if (token !== 'unread') issuanceStatus = token?.issuanceStatus ?? 'FAILED';
    }
    const now = gridStatusOf(issuanceStatus, link.status, record.symbol);
    if (issuanceStatus === record.issuanceStatus && now.gridOperationsStatus === record.gridOperationsStatus) {
      return record;
    }
    const changes = { issuanceStatus, ...now, updatedAt: deps.clock().toISOString() };
    return (await deps.store.updateStablecoin(record.id, changes)) ?? { ...record, ...changes };
  }

  async function list(
    caller: Caller,
    filter: { issuanceStatus?: string; gridOperationsStatus?: string; provider?: string },
    limit: number,
    cursor?: string,
  ): Promise<Page<StablecoinRecord>> {
    return deps.store.stablecoins(caller.platformId, filter, pageQuery(limit, cursor));
  }

  return { register, get, list };
}

function gridStatusOf(issuance: IssuanceStatus, link: ProviderAccountStatus, symbol: string) {
  const gridOperationsStatus = gridOperationsStatusOf(issuance, link);
  // A provisioned token has its Grid currency code (kept when a revoked link disables it).
  return issuance === 'PROVISIONED' ? { gridOperationsStatus, currency: symbol } : { gridOperationsStatus };
}

export type Stablecoins = ReturnType<typeof createStablecoins>;
