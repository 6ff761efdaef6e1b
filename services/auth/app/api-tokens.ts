import { AppError } from '../../../lib/errors';
import { clientSecretMatches, hashClientSecret, MIN_SECRET_LENGTH } from '../domain/api-token-secret';

export interface ApiTokenRecord {
  tokenId: string;
  platformId: string;
  secretHash: string;
  createdAt: string;
}

/** Storage port of the API-token use cases. */
export interface ApiTokenStore {
  find(tokenId: string): Promise<ApiTokenRecord | null>;
  /** Creates the token or replaces its secret hash and platform; answers whether it was new. */
  upsert(record: ApiTokenRecord): Promise<boolean>;
}

// A fixed hash to compare against when the token id is unknown, so timing does not reveal it.
const UNKNOWN_TOKEN_HASH = '0'.repeat(64);

export function createApiTokens(deps: { store: ApiTokenStore; pepper: Buffer; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const unauthorized = () => new AppError('UNAUTHORIZED', 'Invalid API credentials');

  return {
    async authenticate(tokenId: string, clientSecret: string): Promise<{ platformId: string; tokenId: string }> {
      if (!tokenId || !clientSecret) throw unauthorized();
      const record = await deps.store.find(tokenId);
      const matches = clientSecretMatches(clientSecret, record?.secretHash ?? UNKNOWN_TOKEN_HASH, deps.pepper);
      if (!record || !matches) throw unauthorized();
      return { platformId: record.platformId, tokenId: record.tokenId };
    },

    async ensureSandboxToken(input: { platformId: string; tokenId: string; clientSecret: string }): Promise<boolean> {
      if (!input.tokenId || !input.platformId) throw AppError.invalidInput('tokenId and platformId are required');
      if (input.clientSecret.length < MIN_SECRET_LENGTH) {
        throw AppError.invalidInput(`the client secret must be at least ${MIN_SECRET_LENGTH} characters`);
      }
      return deps.store.upsert({
        tokenId: input.tokenId,
        platformId: input.platformId,
        secretHash: hashClientSecret(input.clientSecret, deps.pepper),
        createdAt: now().toISOString(),
      });
    },
  };
}

export type ApiTokens = ReturnType<typeof createApiTokens>;
