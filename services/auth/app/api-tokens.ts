import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { NewEvent } from '../../../lib/bus/outbox';
import { API_TOKEN_DELETED, type ApiTokenDeletedData } from '../../../lib/contract/api-token-events';
import { AppError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import {
  ALL_PERMISSIONS,
  newClientId,
  parseNewApiToken,
  SANDBOX_TOKEN_NAME,
  type ApiTokenRecord,
  type Permission,
} from '../domain/api-token';
import { clientSecretMatches, hashClientSecret, MIN_SECRET_LENGTH, newClientSecret } from '../domain/api-token-secret';
import { decodePageCursor, nextPageCursor, pageLimit, type PagePosition } from '../../../lib/page-cursor';
import { timestampFilter } from '../domain/token-filters';
import { createWithinQuota } from '../../../lib/quota';

export type { ApiTokenRecord, Permission };

export interface ApiTokenFilter {
  platformId: string;
  name?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

/** Storage port of the API-token use cases. Deleted tokens stay as tombstones (`deletedAt`). */
export interface ApiTokenStore {
  /** By client id, deleted ones included. */
  findByClientId(clientId: string): Promise<ApiTokenRecord | null>;
  /** A live token of the platform. */
  findLive(platformId: string, id: string): Promise<ApiTokenRecord | null>;
  insert(record: ApiTokenRecord): Promise<void>;
  /** Creates the sandbox token or replaces its secret hash and platform (revives it); answers whether it was new. */
  upsertSandbox(record: ApiTokenRecord): Promise<boolean>;
  /** Live tokens, newest first. */
  list(
    filter: ApiTokenFilter,
    page: { limit: number; after?: PagePosition },
  ): Promise<{ items: ApiTokenRecord[]; hasMore: boolean; total: number }>;
  /** Marks a live token deleted together with its event, in one conditional write; null when none was live. */
  markDeleted(
    platformId: string,
    id: string,
    now: string,
    event: (t: ApiTokenRecord) => DomainEvent,
  ): Promise<ApiTokenRecord | null>;
  /** The platform's live MANAGE tokens, as a guard set: adding is idempotent. */
  addManager(platformId: string, clientId: string): Promise<void>;
  /** Removes `clientId` from the guard set only while another manager remains; false otherwise. */
  removeManagerUnlessLast(platformId: string, clientId: string): Promise<boolean>;
}

// A fixed hash to compare against when the token id is unknown, so timing does not reveal it.
const UNKNOWN_TOKEN_HASH = '0'.repeat(64);

export function createApiTokens(deps: {
  store: ApiTokenStore;
  pepper: Buffer;
  newEvent: NewEvent;
  now?: () => Date;
  /** Live API tokens one platform may hold (the sandbox token included). */
  maxTokensPerPlatform?: number;
}) {
  const now = deps.now ?? (() => new Date());
  const unauthorized = () => new AppError('UNAUTHORIZED', 'Invalid API credentials');
  const notFound = () => AppError.notFound('API token', 'TOKEN_NOT_FOUND');

  return {
    async authenticate(
      clientId: string,
      clientSecret: string,
    ): Promise<{ platformId: string; tokenId: string; permissions: Permission[] }> {
      if (!clientId || !clientSecret) throw unauthorized();
      const record = await deps.store.findByClientId(clientId);
      const matches = clientSecretMatches(clientSecret, record?.secretHash ?? UNKNOWN_TOKEN_HASH, deps.pepper);
      if (!record || !matches || record.deletedAt) throw unauthorized();
      return { platformId: record.platformId, tokenId: record.clientId, permissions: record.permissions };
    },

    async ensureSandboxToken(input: { platformId: string; tokenId: string; clientSecret: string }): Promise<boolean> {
      if (!input.tokenId || !input.platformId) throw AppError.invalidInput('tokenId and platformId are required');
      if (input.tokenId.includes(':')) {
        throw AppError.invalidInput('the sandbox token id cannot contain ":" (the HTTP Basic separator)');
      }
      if (input.clientSecret.length < MIN_SECRET_LENGTH) {
        throw AppError.invalidInput(`the client secret must be at least ${MIN_SECRET_LENGTH} characters`);
      }
      const at = now().toISOString();
      const created = await deps.store.upsertSandbox({
        id: newId('Token'),
        clientId: input.tokenId,
        platformId: input.platformId,
        name: SANDBOX_TOKEN_NAME,
        permissions: [...ALL_PERMISSIONS],
        secretHash: hashClientSecret(input.clientSecret, deps.pepper),
        createdAt: at,
        updatedAt: at,
      });
      await deps.store.addManager(input.platformId, input.tokenId);
      return created;
    },

    async create(
      platformId: string,
      input: { name?: string; permissions: string[] },
    ): Promise<{ token: ApiTokenRecord; clientSecret: string }> {
      const wanted = parseNewApiToken(input);
      const clientSecret = newClientSecret();
      const at = now().toISOString();
      // 429 (the contract's answer for POST /tokens): a deletion makes room.
      const quota = {
        what: 'API tokens per platform',
        limit: deps.maxTokensPerPlatform ?? Number.POSITIVE_INFINITY,
        retryAfterSeconds: 60,
      };
      const token = await createWithinQuota(quota, {
        count: async () => (await deps.store.list({ platformId }, { limit: 1 })).total,
        create: async () => {
          const record: ApiTokenRecord = {
            id: newId('Token'),
            clientId: newClientId(),
            platformId,
            ...wanted,
            secretHash: hashClientSecret(clientSecret, deps.pepper),
            createdAt: at,
            updatedAt: at,
          };
          await deps.store.insert(record);
          return record;
        },
        // Never handed out: deleted at once (gateways hear of it like any deletion).
        undo: async (record) => {
          await deps.store.markDeleted(
            platformId,
            record.id,
            at,
            (t) =>
              deps.newEvent<ApiTokenDeletedData & Record<string, unknown>>({
                type: API_TOKEN_DELETED,
                version: 1,
                platformId: t.platformId,
                aggregateId: t.id,
                data: { tokenId: t.id, clientId: t.clientId },
              }),
          );
        },
      });
      if (token.permissions.includes('MANAGE')) await deps.store.addManager(platformId, token.clientId);
      return { token, clientSecret };
    },

    async get(platformId: string, id: string): Promise<ApiTokenRecord> {
      const token = await deps.store.findLive(platformId, id);
      if (!token) throw notFound();
      return token;
    },

    async list(filter: ApiTokenFilter, limit: number, cursor?: string) {
      const clean: ApiTokenFilter = {
        platformId: filter.platformId,
        ...(filter.name ? { name: filter.name } : {}),
        ...Object.fromEntries(
          (['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'] as const)
            .map((k) => [k, timestampFilter(filter[k], k)]).filter(([, v]) => v !== undefined),
        ),
      };
      const page = await deps.store.list(clean, {
        limit: pageLimit(limit),
        ...(cursor ? { after: decodePageCursor(cursor) } : {}),
      });
      return { ...page, nextCursor: nextPageCursor(page.items, page.hasMore) };
    },

    /**
     * Deletes a token at once. The platform's last MANAGE token is never deleted (CONFLICT): the
     * guard set of MANAGE tokens gives one up only while another remains, so two concurrent
     * deletions cannot remove the last two.
     */
    async delete(platformId: string, id: string): Promise<ApiTokenRecord> {
      const token = await deps.store.findLive(platformId, id);
      if (!token) throw notFound();
      if (token.permissions.includes('MANAGE')) {
        await deps.store.addManager(platformId, token.clientId); // heals a set that missed this token
        if (!(await deps.store.removeManagerUnlessLast(platformId, token.clientId))) {
          throw new AppError(
            'CONFLICT',
            "This is the platform's last API token with the MANAGE "
              + 'permission; create another MANAGE token before deleting it',
            { reason: 'LAST_MANAGE_TOKEN' },
          );
        }
      }
      const at = now().toISOString();
      const deleted = await deps.store.markDeleted(
        platformId,
        id,
        at,
        (t) =>
          deps.newEvent<ApiTokenDeletedData & Record<string, unknown>>({
            type: API_TOKEN_DELETED,
            version: 1,
            platformId: t.platformId,
            aggregateId: t.id,
            data: { tokenId: t.id, clientId: t.clientId },
          }),
      );
      if (!deleted) throw notFound();
      return deleted;
    },
  };
}

export type ApiTokens = ReturnType<typeof createApiTokens>;
