import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError } from '../../../lib/errors';
import { isId } from '../../../lib/ids';
import { defaultEmbeddedWalletConfig, defaultSettings, type PlatformSettings } from '../domain/platform-config';
import { holdingAccountSteps } from '../domain/provisioning-plan';
import type { AccountProvisioning } from './account-provisioning';
import type { AccountsStore, Platform } from './accounts-store';

export interface PlatformDefaults {
  supportedCurrencies: string[];
  umaDomain: string;
  /** The currency of customers' embedded wallets. */
  walletCurrency: string;
}

/** What customer use cases need to know about the platform. */
export interface PlatformSettingsView {
  supportedCurrencies: string[];
  umaDomain: string;
  /** The platform configured embedded-wallet support: its customers get an EMBEDDED_WALLET account. */
  embeddedWallets: boolean;
  walletCurrency: string;
}

export interface Platforms {
  ensure(
    input: { platformId: string; name: string; umaDomain?: string; embeddedWallets?: boolean },
  ): Promise<{ platform: Platform; created: boolean }>;
  get(platformId: string): Promise<Platform>;
  /** The platform's settings; the service defaults when the platform was never ensured. */
  settingsOf(platformId: string): Promise<PlatformSettingsView>;
}

/** The stored settings, or the defaults for a platform stored before configuration existed. */
export function settingsOfPlatform(platform: Platform): PlatformSettings {
  return platform.settings ?? defaultSettings(platform.supportedCurrencies);
}

export function createPlatforms(deps: {
  store: AccountsStore;
  provisioning: AccountProvisioning;
  newEvent: NewEvent;
  clock: () => Date;
  defaults: PlatformDefaults;
}): Platforms {
  const { store, defaults } = deps;
  return {
    async ensure(input) {
      const problems = [];
      if (!isId('Platform', input.platformId)) {
        problems.push({ field: 'platformId', message: 'must be a platform id (Platform:<uuid>)' });
      }
      if (!input.name.trim()) problems.push({ field: 'name', message: 'is required' });
      if (problems.length) throw AppError.invalidInput('Invalid platform', problems);
      const now = deps.clock().toISOString();
      const result = await store.platforms.ensure({
        id: input.platformId,
        name: input.name.trim(),
        supportedCurrencies: defaults.supportedCurrencies,
        umaDomain: input.umaDomain || defaults.umaDomain,
        settings: {
          ...defaultSettings(defaults.supportedCurrencies),
          ...(input.embeddedWallets ? { embeddedWalletConfig: defaultEmbeddedWalletConfig(input.name.trim()) } : {}),
        },
        configRevision: 0,
        provisioning: holdingAccountSteps(input.platformId, defaults.supportedCurrencies, now),
        createdAt: now,
        updatedAt: now,
      });
      // Also on repeat calls: completes a first call that stopped half-way.
      const pending = result.platform.provisioning ?? [];
      if (pending.length) await deps.provisioning.completePlatform(result.platform, pending);
      const { provisioning: _marker, ...platform } = result.platform;
      return { platform, created: result.created };
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
        embeddedWallets: platform?.settings?.embeddedWalletConfig !== undefined,
        walletCurrency: defaults.walletCurrency,
      };
    },
  };
}
