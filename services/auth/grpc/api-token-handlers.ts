import { ApiTokenServiceService } from '../../../gen/auth/v1/api_tokens';
import { bindService } from '../../../lib/grpc/service-binding';
import type { ApiTokens } from '../app/api-tokens';

export function bindApiTokenService(apiTokens: ApiTokens) {
  return bindService(ApiTokenServiceService, {
    async authenticateApiToken(request) {
      return apiTokens.authenticate(request.tokenId, request.clientSecret);
    },
    async ensureSandboxToken(request) {
      const created = await apiTokens.ensureSandboxToken(request);
      return { tokenId: request.tokenId, created };
    },
  });
}
