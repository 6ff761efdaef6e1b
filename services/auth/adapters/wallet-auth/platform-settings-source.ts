import type { Logger } from '../../../../lib/log';
import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import type { PlatformSettingsSource, PlatformWalletSettings } from '../../app/wallet-auth/wallet-auth-ports';
import { normalizeEmbeddedWalletConfig } from '../../domain/wallet-auth/embedded-wallet-config';

export type SettingsDefaults = Omit<PlatformWalletSettings, 'config'>;

function readStructured(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    try {
      return readStructured(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

/**
 * A platform's embedded-wallet settings: its embeddedWalletConfig from the accounts service when
 * the platform record carries one, else the documented defaults; sandbox mode, OIDC issuers and
 * audiences and passkey relying parties from configuration unless the platform sets them.
 */
export function createPlatformSettingsSource(
  deps: { peers: PeerClients; defaults: SettingsDefaults; logger: Logger; cacheMs?: number },
): PlatformSettingsSource {
  const cacheMs = deps.cacheMs ?? 10_000;
  const cache = new Map<string, { at: number; settings: PlatformWalletSettings }>();

  async function load(platformId: string): Promise<PlatformWalletSettings> {
    let platform: Record<string, unknown> = {};
    try {
      const response = await deps.peers.accounts.getPlatform({}, { platformId });
      platform = (response.platform ?? {}) as unknown as Record<string, unknown>;
    } catch (err) {
      deps.logger.warn('platform settings unavailable; using defaults', { platformId, err });
    }
    const config = readStructured(platform.embeddedWalletConfig) ?? {};
    const list = (
      value: unknown,
      fallback: string[],
    ) => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : fallback);
    const oauth = readStructured(config.oauth) ?? {};
    return {
      sandbox: typeof platform.sandbox === 'boolean' ? platform.sandbox : deps.defaults.sandbox,
      config: normalizeEmbeddedWalletConfig(config),
      oidc: {
        issuers: list(oauth.allowedIssuers, deps.defaults.oidc.issuers),
        audiences: list(oauth.allowedAudiences, deps.defaults.oidc.audiences),
      },
      passkey: deps.defaults.passkey,
    };
  }

  return {
    async settingsFor(platformId) {
      const hit = cache.get(platformId);
      if (hit && Date.now() - hit.at < cacheMs) return hit.settings;
      const settings = await load(platformId);
      cache.set(platformId, { at: Date.now(), settings });
      return settings;
    },
  };
}
