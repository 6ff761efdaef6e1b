import { readConfig, setting } from '../../lib/config';
import { DEFAULT_AUTH_THROTTLE, type AuthThrottleLimits } from './auth-throttle';

/** Throttling of failed authentication; every variable is optional. */
export const AUTH_THROTTLE_SETTINGS = {
  /** Failed authentications allowed per API token id from one client address in the window before 429 @default 20 */
  GATEWAY_AUTH_FAILURES_PER_TOKEN: setting.int(DEFAULT_AUTH_THROTTLE.perToken, 1, 1_000_000),
  /**
   * Failed authentications allowed per client address in the window before 429 (token ids not yet tried from it still
   * get one check) @default 60
   */
  GATEWAY_AUTH_FAILURES_PER_ADDRESS: setting.int(DEFAULT_AUTH_THROTTLE.perAddress, 1, 1_000_000),
  /** The window of the failed-authentication limits @default 60 */
  GATEWAY_AUTH_FAILURE_WINDOW_SECONDS: setting.int(DEFAULT_AUTH_THROTTLE.windowSeconds, 1, 86_400),
};

export function readAuthThrottleLimits(env: NodeJS.ProcessEnv): AuthThrottleLimits {
  const c = readConfig(AUTH_THROTTLE_SETTINGS, env);
  return {
    perToken: c.GATEWAY_AUTH_FAILURES_PER_TOKEN,
    perAddress: c.GATEWAY_AUTH_FAILURES_PER_ADDRESS,
    windowSeconds: c.GATEWAY_AUTH_FAILURE_WINDOW_SECONDS,
  };
}
