/**
 * The sandbox platform and API token the gateway keeps working (no dependencies: main.ts reads it before loading
 * anything else).
 */
export interface SandboxIdentity {
  platformId: string;
  tokenId: string;
  clientSecret: string;
}

/** Documented defaults, used when SANDBOX_API_TOKEN_ID / SANDBOX_API_CLIENT_SECRET are unset. */
export const DEFAULT_SANDBOX: SandboxIdentity = {
  platformId: 'Platform:00000000-0000-4000-8000-000000000001',
  tokenId: 'sandbox-token',
  clientSecret: 'sandbox-secret-0000000000',
};
