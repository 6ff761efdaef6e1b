import { ApiToken_Permission, ApiTokenServiceService, type ApiToken } from '../../../gen/auth/v1/api_tokens';
import { AppError } from '../../../lib/errors';
import type { CallContext } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { ApiTokenRecord, ApiTokens } from '../app/api-tokens';

const permissionsOf = (r: Pick<ApiTokenRecord, 'permissions'>) => r.permissions.map((p) => p as ApiToken_Permission);

function tokenMessage(r: ApiTokenRecord, clientSecret?: string): ApiToken {
  return {
    id: r.id,
    name: r.name,
    permissions: permissionsOf(r),
    clientId: r.clientId,
    ...(clientSecret ? { clientSecret } : {}),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function platformOf(ctx: CallContext): string {
  if (!ctx.platformId) throw new AppError('UNAUTHORIZED', 'A platform is required');
  return ctx.platformId;
}

export function bindApiTokenService(apiTokens: ApiTokens) {
  return bindService(ApiTokenServiceService, {
    async authenticateApiToken(request) {
      const caller = await apiTokens.authenticate(request.tokenId, request.clientSecret);
      return { ...caller, permissions: permissionsOf(caller) };
    },
    async ensureSandboxToken(request) {
      const created = await apiTokens.ensureSandboxToken(request);
      return { tokenId: request.tokenId, created };
    },
    async createApiToken(request, ctx) {
      const { token, clientSecret } = await apiTokens.create(platformOf(ctx), {
        name: request.name,
        permissions: request.permissions,
      });
      return { token: tokenMessage(token, clientSecret) };
    },
    async getApiToken(request, ctx) {
      return { token: tokenMessage(await apiTokens.get(platformOf(ctx), request.id)) };
    },
    async listApiTokens(request, ctx) {
      const page = await apiTokens.list({ platformId: platformOf(ctx), ...request }, request.limit, request.cursor);
      return {
        data: page.items.map((t) => tokenMessage(t)),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
        totalCount: page.total,
      };
    },
    async deleteApiToken(request, ctx) {
      const deleted = await apiTokens.delete(platformOf(ctx), request.id);
      return { clientId: deleted.clientId };
    },
  });
}
