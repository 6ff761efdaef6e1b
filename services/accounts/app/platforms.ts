import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError } from '../../../lib/errors';
import { isId, newId } from '../../../lib/ids';
import { openInternalAccount } from '../domain/internal-account';
import type { AccountsStore, Platform } from './accounts-store';
import { internalAccountCreated } from './account-events';

export interface PlatformDefaults {
  supportedCurrencies: string[];
  umaDomain: string;
}

export interface Platforms {
  ensure(input: { platformId: string; name: string; umaDomain?: string }): Promise<{ platform: Platform; created: boolean }>;
  get(platformId: string): Promise<Platform>;
  /** The platform's settings; the service defaults when the platform was never ensured. */
  settingsOf(platformId: string): Promise<{ supportedCurrencies: string[]; umaDomain: string }>;
}

export function createPlatforms(deps: { store: AccountsStore; newEvent: NewEvent; clock: () => Date; defaults: PlatformDefaults }): Platforms {
  const { store, newEvent, defaults } = deps;

  /** Opens a platform internal account per supported currency; already-open ones are kept. */
  const openPlatformAccounts = async (platform: Platform) => {
    for (const currency of platform.supportedCurrencies) {
      const account = openInternalAccount({ id: newId('InternalAccount'), platformId: platform.id, currency, now: deps.clock().toISOString() });
      await store.internalAccounts.insertIfAbsent(account, [internalAccountCreated(newEvent, account)]);
    }
  };

  return {
    async ensure(input) {
      const problems = [];
      if (!isId('Platform', input.platformId)) problems.push({ field: 'platformId', message: 'must be a platform id (Platform:<uuid>)' });
      if (!input.name.trim()) problems.push({ field: 'name', message: 'is required' });
      if (problems.length) throw AppError.invalidInput('Invalid platform', problems);
      const now = deps.clock().toISOString();
      const result = await store.platforms.ensure({
        id: input.platformId,
        name: input.name.trim(),
        supportedCurrencies: defaults.supportedCurrencies,
        umaDomain: input.umaDomain || defaults.umaDomain,
        createdAt: now,
        updatedAt: now,
      });
      // Also on repeat calls: completes a first call that stopped half-way.
      await openPlatformAccounts(result.platform);
      return result;
    },
    async get(platformId) {
      const platform = await store.platforms.find(platformId);
      if (!platform) throw AppError.notFound('Platform');
      return platform;
    },
    async settingsOf(platformId) {
      const platform = await store.platforms.find(platformId);
      return {
        supportedCurrencies: platform?.supportedCurrencies ?? defaults.supportedCurrencies,
        umaDomain: platform?.umaDomain ?? defaults.umaDomain,
      };
    },
  };
}
