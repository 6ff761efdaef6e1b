import { ConfigError, readConfig, setting, type ConfigOf } from '../../lib/config';

// Express's own parser of `trust proxy` lists (no type declarations ship with it).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const proxyAddr = require('proxy-addr') as { compile(list: string[]): unknown };

/** Which proxies' X-Forwarded-For the gateway believes: off, a hop count, or their addresses. */
export type TrustProxy = false | number | string;

/**
 * Express's `trust proxy`, given explicitly: unset, "false" or "0" believes no header (the client
 * address is the connection's); a number trusts that many hops in front of the gateway; otherwise a
 * comma-separated list of proxy addresses, subnets or the names loopback, linklocal, uniquelocal.
 * "true" (trust every hop) is refused: any client could then choose its own address.
 */
function trustProxyOf(name: string, value: string | undefined): TrustProxy {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') {
    throw new ConfigError(
      name,
      'may not be "true" (any client could choose its address): give '
        + 'the number of proxies in front of the gateway, or their addresses',
    );
  }
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  try {
    proxyAddr.compile(list);
  } catch (err) {
    throw new ConfigError(name, `is not a hop count nor a list of addresses or subnets: ${(err as Error).message}`);
  }
  return list.join(',');
}

/** The gateway's edge: client addresses behind proxies, and each credential's request rate. */
export const EDGE_SETTINGS = {
  /**
   * Proxies whose X-Forwarded-For names the client (Express `trust proxy`): unset/false = none, a hop count, or their
   * addresses/subnets; "true" is refused
   */
  GATEWAY_TRUST_PROXY: setting.optionalString(),
  /** Requests one API token (or agent) may make per window before 429 @default 6000 */
  GATEWAY_RATE_LIMIT_REQUESTS: setting.int(6_000, 1, 100_000_000),
  /** The window of the per-token request limit, in seconds @default 60 */
  GATEWAY_RATE_LIMIT_WINDOW_SECONDS: setting.int(60, 1, 86_400),
  /**
   * Requests all of one platform's credentials together may make per window, in addition to each one's limit (more
   * tokens do not multiply the rate); 0: four times GATEWAY_RATE_LIMIT_REQUESTS @default 0
   */
  GATEWAY_PLATFORM_RATE_LIMIT_REQUESTS: setting.int(0, 0, 1_000_000_000),
};

export type EdgeSettings = Omit<ConfigOf<typeof EDGE_SETTINGS>, 'GATEWAY_TRUST_PROXY'> & {
  GATEWAY_TRUST_PROXY: TrustProxy;
};

export function readEdgeSettings(env: NodeJS.ProcessEnv): EdgeSettings {
  const c = readConfig(EDGE_SETTINGS, env);
  return { ...c, GATEWAY_TRUST_PROXY: trustProxyOf('GATEWAY_TRUST_PROXY', c.GATEWAY_TRUST_PROXY) };
}

export const DEFAULT_EDGE_SETTINGS: EdgeSettings = readEdgeSettings({});
