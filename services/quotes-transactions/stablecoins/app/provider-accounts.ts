import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import type { Logger } from '../../../../lib/log';
import { pageQuery } from '../../../../lib/page-cursor';
import type { ProviderEnvironment } from '../domain/stablecoin-operation';
import type { Caller } from '../../shared/app/payment-accounts';
import {
  ProviderCredentialsRevoked,
  ProviderRejected,
  ProviderUnavailable,
  type Page,
  type ProviderAccountRecord,
  type ProviderCredentials,
  type SecretSealer,
  type StablecoinProvider,
  type StablecoinStore,
} from './stablecoin-ports';

export interface ProviderAccountDeps {
  store: StablecoinStore;
  provider: StablecoinProvider;
  sealer: SecretSealer;
  environment: ProviderEnvironment;
  clock: () => Date;
  /** A GET re-verifies the credentials when they were last verified longer ago than this. */
  reverifyAfterMs: number;
  logger?: Logger;
}

export interface LinkRequest {
  provider: string;
  apiClientId: string;
  apiClientSecret: string;
  providerAccountId?: string;
}

const unavailable = () =>
  new AppError('UNAVAILABLE', 'The stablecoin provider is temporarily unavailable; retry later');

/** Provider account links: credentials verified with the provider, the secret sealed at rest. */
export function createProviderAccounts(deps: ProviderAccountDeps) {
  const credentialsOf = (record: ProviderAccountRecord): ProviderCredentials => ({
    clientId: record.clientId,
    clientSecret: deps.sealer.open(record.sealedSecret, record.id),
    environment: record.providerEnvironment,
  });

  async function link(caller: Caller, request: LinkRequest): Promise<ProviderAccountRecord> {
    const errors = [];
    if (request.provider !== 'BRALE') errors.push({ field: 'provider', message: 'must be BRALE' });
    if (!request.apiClientId.trim()) errors.push({ field: 'apiClientId', message: 'is required' });
    if (!request.apiClientSecret) errors.push({ field: 'apiClientSecret', message: 'is required' });
    if (errors.length) throw AppError.invalidInput('Invalid provider account link', errors);
    const check = await deps.provider.verifyCredentials({
      clientId: request.apiClientId,
      clientSecret: request.apiClientSecret,
      environment: deps.environment,
    })
      .catch((err: unknown) => {
        if (err instanceof ProviderUnavailable) throw unavailable();
        if (err instanceof ProviderRejected) {
          throw new AppError(
            'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
            `The provider refused these credentials: ${err.message}`,
          );
        }
        throw err;
      });
    if (!check.valid) {
      throw new AppError(
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
        `The provider refused these credentials: ${check.reason}`,
      );
    }
    const providerAccountId = chooseAccount(check.accountIds, request.providerAccountId);
    const now = deps.clock().toISOString();
    const id = newId('StablecoinProviderAccount');
    const record: ProviderAccountRecord = {
      id,
      platformId: caller.platformId,
      provider: 'BRALE',
      providerAccountId,
      providerEnvironment: deps.environment,
      status: 'ACTIVE',
      clientId: request.apiClientId,
      sealedSecret: deps.sealer.seal(request.apiClientSecret, id),
      lastVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    };
    await deps.store.insertAccount(record);
    return record;
  }

  /**
   * The account as of now: re-verified with the provider when the last check is old; an unreachable provider leaves it
   * as it was.
   */
  async function get(caller: Caller, id: string): Promise<ProviderAccountRecord> {
    const record = await deps.store.account(caller.platformId, id);
    if (!record) throw AppError.notFound(`Stablecoin provider account ${id}`, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    if (record.status === 'REVOKED' || !isStale(record)) return record;
    try {
      const check = await deps.provider.verifyCredentials(credentialsOf(record));
      const now = deps.clock().toISOString();
      if (!check.valid && check.revoked) return revoke(record);
      const usable = check.valid && check.accountIds.includes(record.providerAccountId);
      const changes = usable
        ? { status: 'ACTIVE' as const, lastVerifiedAt: now, updatedAt: now }
        : { status: 'INVALID' as const, updatedAt: now };
      return (await deps.store.updateAccount(record.id, changes)) ?? record;
    } catch (err) {
      if (err instanceof ProviderCredentialsRevoked) return revoke(record);
      if (err instanceof ProviderRejected) {
        const now = deps.clock().toISOString();
        return (await deps.store.updateAccount(record.id, { status: 'INVALID', updatedAt: now })) ?? record;
      }
      if (!(err instanceof ProviderUnavailable)) throw err;
      deps.logger?.warn('stablecoin provider unreachable; account not re-verified', { accountId: record.id });
      return record;
    }
  }

  /**
   * The provider refuses the credentials themselves (OAuth invalid_client) though they worked when
   * linked: they were revoked at the provider. Final: the link is never verified or used again.
   */
  async function revoke(record: ProviderAccountRecord): Promise<ProviderAccountRecord> {
    if (record.status === 'REVOKED') return record;
    deps.logger?.warn('stablecoin provider credentials revoked at the provider; link revoked', {
      accountId: record.id,
    });
    return (await deps.store.updateAccount(record.id, { status: 'REVOKED', updatedAt: deps.clock().toISOString() }))
      ?? record;
  }

  /** Runs a provider call for a link; credentials the provider refuses as revoked revoke the link. */
  async function calling<T>(record: ProviderAccountRecord, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ProviderCredentialsRevoked) await revoke(record);
      throw err;
    }
  }

  function isStale(record: ProviderAccountRecord): boolean {
    return !record.lastVerifiedAt || deps.clock().getTime() - Date.parse(record.lastVerifiedAt) >= deps.reverifyAfterMs;
  }

  async function list(
    caller: Caller,
    filter: { provider?: string; status?: string },
    limit: number,
    cursor?: string,
  ): Promise<Page<ProviderAccountRecord>> {
    return deps.store.accounts(caller.platformId, filter, pageQuery(limit, cursor));
  }

  /** The link a stablecoin uses: the one named, or the only active one of the platform's environment. */
  async function usable(caller: Caller, id: string | undefined): Promise<ProviderAccountRecord> {
    let record: ProviderAccountRecord | null;
    if (id) {
      record = await deps.store.account(caller.platformId, id);
      if (!record) {
        throw AppError.notFound(`Stablecoin provider account ${id}`, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
      }
    } else {
      const active = await deps.store.accounts(caller.platformId, { status: 'ACTIVE', environment: deps.environment }, {
        limit: 2,
      });
      if (active.items.length === 0) {
        throw AppError.notFound('An active stablecoin provider account', 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
      }
      if (active.items.length > 1) {
        throw new AppError(
          'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
          'Several active provider accounts are linked; pass stablecoinProviderAccountId',
        );
      }
      record = active.items[0];
    }
    return ensureUsable(record);
  }

  function ensureUsable(record: ProviderAccountRecord): ProviderAccountRecord {
    if (record.status === 'REVOKED') {
      throw new AppError(
        'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
        `Stablecoin provider account ${record.id} has been revoked`,
      );
    }
    if (record.status !== 'ACTIVE') {
      throw new AppError(
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
        `Stablecoin provider account ${record.id} is not usable (its credentials failed verification)`,
      );
    }
    if (record.providerEnvironment !== deps.environment) {
      throw new AppError(
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
        `Stablecoin provider account ${record.id} is of the ${record.providerEnvironment} environment`,
      );
    }
    return record;
  }

  async function byId(platformId: string, id: string): Promise<ProviderAccountRecord> {
    const record = await deps.store.account(platformId, id);
    if (!record) throw AppError.notFound(`Stablecoin provider account ${id}`, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    return record;
  }

  return { link, get, list, usable, ensureUsable, byId, credentialsOf, revoke, calling };
}

function chooseAccount(accountIds: string[], wanted: string | undefined): string {
  if (wanted) {
    if (!accountIds.includes(wanted)) {
      throw new AppError(
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
        `These credentials do not reach provider account ${wanted}`,
      );
    }
    return wanted;
  }
  if (accountIds.length === 1) return accountIds[0];
  if (accountIds.length === 0) {
    throw new AppError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'These credentials reach no provider account');
  }
  throw AppError.invalidInput('Several provider accounts are reachable', [{
    field: 'providerAccountId',
    message: `is required: one of ${accountIds.join(', ')}`,
  }]);
}

export type ProviderAccounts = ReturnType<typeof createProviderAccounts>;
