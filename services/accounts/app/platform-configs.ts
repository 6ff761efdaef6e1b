import type {
  PlatformConfigChanges as PlatformConfigChangesMessage,
} from '../../../gen/accounts/v1/platform_config_changes';
import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError, type FieldError } from '../../../lib/errors';
import { validateAlongside } from '../../../lib/field-error-list';
import { endpointProblem, type LookupAll } from '../../../lib/net/endpoint-safety';
import { platformConfigId } from '../domain/name-based-id';
import {
  applyConfigChanges,
  changedConfigFields,
  type PlatformConfigChanges,
  type PlatformCurrencyConfig,
  type PlatformSettings,
} from '../domain/platform-config';
import { validatePlatformConfigUpdate } from '../domain/platform-config-validation';
import { holdingAccountSteps } from '../domain/provisioning-plan';
import { platformConfigUpdated } from './account-events';
import type { AccountProvisioning } from './account-provisioning';
import type { AccountsStore, Platform } from './accounts-store';
import { settingsOfPlatform } from './platforms';

/** The REST PlatformConfig (plus `limits`). */
export interface PlatformConfigView extends Omit<PlatformSettings, 'currencyConfigs'> {
  id: string;
  umaDomain?: string;
  supportedCurrencies: PlatformCurrencyConfig[];
  createdAt: string;
  updatedAt: string;
}

export interface PlatformConfigs {
  get(platformId: string): Promise<PlatformConfigView>;
  /** The webhook endpoint alone (read for every event), undefined when none is set. */
  webhookEndpoint(platformId: string): Promise<string | undefined>;
  /** The extension webhook types the platform opted into (none by default). */
  webhookExtensionTypes(platformId: string): Promise<string[]>;
  /** `shapeErrors`: what the gateway already refused in the body, reported with ours in one list. */
  update(
    platformId: string,
    changes: PlatformConfigChangesMessage,
    shapeErrors?: FieldError[],
  ): Promise<PlatformConfigView>;
}

/** Concurrent PATCHes re-apply their own changes on the winner's result this many times. */
const ATTEMPTS = 3;

export function platformConfigView(platform: Platform): PlatformConfigView {
  const { currencyConfigs, ...settings } = settingsOfPlatform(platform);
  return {
    id: platformConfigId(platform.id),
    umaDomain: platform.umaDomain,
    ...settings,
    supportedCurrencies: currencyConfigs,
    createdAt: platform.createdAt,
    updatedAt: platform.updatedAt,
  };
}

export interface WebhookEndpointPolicy {
  /** The sandbox: http and receivers on this machine or a private network are allowed. */
  allowLocal: boolean;
  /** Production: a host that does not resolve at configuration time is refused. */
  requireResolvable?: boolean;
  /** Operator-approved https origins (WEBHOOK_TRUSTED_ENDPOINTS), allowed wherever they are. */
  trusted?: readonly string[];
  /** Resolves a host's addresses (tests pass a fake); the system resolver by default. */
  resolveAll?: LookupAll;
}

export function createPlatformConfigs(deps: {
  store: AccountsStore;
  provisioning: AccountProvisioning;
  newEvent: NewEvent;
  clock: () => Date;
  webhookEndpoints?: WebhookEndpointPolicy;
}): PlatformConfigs {
  const { store } = deps;
  const endpointRules = deps.webhookEndpoints ?? { allowLocal: true };
  /** Outside the sandbox: https, and no host that resolves to loopback, private, link-local or metadata addresses. */
  const checkEndpoint = async (url: string | undefined) => {
    if (!url) return;
    const problem = await endpointProblem(url, endpointRules, endpointRules.resolveAll);
    if (problem) {
      throw AppError.invalidInput('Invalid platform configuration', [{ field: 'webhookEndpoint', message: problem }]);
    }
  };
  const find = async (platformId: string) => {
    const platform = await store.platforms.find(platformId);
    if (!platform) throw AppError.notFound('Platform');
    return platform;
  };

  /** The platform after `changes`, with the platform accounts its new currencies need. */
  const changed = (platform: Platform, changes: PlatformConfigChanges, now: string) => {
    const settings = applyConfigChanges(settingsOfPlatform(platform), changes);
    const currencies = settings.currencyConfigs.map((c) => c.currencyCode);
    const added = currencies.filter((c) => !platform.supportedCurrencies.includes(c));
    const next: Platform = {
      ...platform,
      settings,
      supportedCurrencies: currencies,
      updatedAt: now,
      configRevision: (platform.configRevision ?? 0) + 1,
      ...(changes.umaDomain !== undefined ? { umaDomain: changes.umaDomain } : {}),
    };
    return { next, steps: holdingAccountSteps(platform.id, added, now) };
  };

  return {
    async get(platformId) {
      return platformConfigView(await find(platformId));
    },
    async webhookEndpoint(platformId) {
      return settingsOfPlatform(await find(platformId)).webhookEndpoint?.trim() || undefined;
    },
    async webhookExtensionTypes(platformId) {
      return settingsOfPlatform(await find(platformId)).webhookExtensionTypes ?? [];
    },
    async update(platformId, message, shapeErrors) {
      const changes = validateAlongside(shapeErrors, () => validatePlatformConfigUpdate(message));
      await checkEndpoint(changes.webhookEndpoint);
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const now = deps.clock().toISOString();
        const { next, steps } = changed(await find(platformId), changes, now);
        const event = platformConfigUpdated(deps.newEvent, platformId, changedConfigFields(changes));
        if (await store.platforms.replaceConfig(next, [event], steps)) {
          await deps.provisioning.completePlatform(next, steps);
          return platformConfigView(next);
        }
      }
      throw new AppError('CONFLICT', 'The platform configuration was changed concurrently; retry');
    },
  };
}
