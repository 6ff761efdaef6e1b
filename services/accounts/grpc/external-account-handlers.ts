import { AppError } from '../../../lib/errors';
import { requirePlatform } from '../../../lib/grpc/call-context';
import type { ExternalAccountOwner } from '../domain/external-account-validation';
import type { AccountsUseCases } from './accounts-handlers';
import { pageOf, type AccountsHandlers } from './page-message';
import { ownershipChallengeMessage } from './config-mappers';
import { externalAccountMessage } from './proto-mappers';

type ExternalAccountRpcs =
  | 'createExternalAccount'
  | 'createPlatformExternalAccount'
  | 'getExternalAccount'
  | 'listExternalAccounts'
  | 'listPlatformExternalAccounts'
  | 'deleteExternalAccount'
  | 'updateExternalAccountStatus'
  | 'startOwnershipChallenge'
  | 'verifyOwnership';

function ownerOf(value: string): ExternalAccountOwner | undefined {
  if (value === '') return undefined;
  if (value === 'CUSTOMER' || value === 'PLATFORM') return value;
  throw AppError.invalidInput('Invalid owner', [{
    field: 'owner',
    message: 'must be CUSTOMER or PLATFORM',
    constraint: { enum: ['CUSTOMER', 'PLATFORM'] },
  }]);
}

export function externalAccountHandlers(uc: AccountsUseCases): Pick<AccountsHandlers, ExternalAccountRpcs> {
  return {
    async createExternalAccount(req, ctx) {
      return {
        account: externalAccountMessage(
          await uc.externalAccounts.create(requirePlatform(ctx), req, 'CUSTOMER', ctx.fieldErrors),
        ),
      };
    },
    async createPlatformExternalAccount(req, ctx) {
      return {
        account: externalAccountMessage(
          await uc.externalAccounts.create(requirePlatform(ctx), req, 'PLATFORM', ctx.fieldErrors),
        ),
      };
    },
    async getExternalAccount(req, ctx) {
      return { account: externalAccountMessage(await uc.externalAccounts.get(requirePlatform(ctx), req.id)) };
    },
    async listExternalAccounts(req, ctx) {
      const page = pageOf(
        await uc.externalAccounts.list(requirePlatform(ctx), 'CUSTOMER', req),
        externalAccountMessage,
      );
      return { accounts: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async listPlatformExternalAccounts(req, ctx) {
      const page = pageOf(
        await uc.externalAccounts.list(requirePlatform(ctx), 'PLATFORM', req),
        externalAccountMessage,
      );
      return { accounts: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async deleteExternalAccount(req, ctx) {
      await uc.externalAccounts.delete(requirePlatform(ctx), req.id, ownerOf(req.owner));
      return {};
    },
    async updateExternalAccountStatus(req, ctx) {
      return {
        account: externalAccountMessage(
          await uc.externalAccounts.updateStatus(requirePlatform(ctx), req.id, req.status),
        ),
      };
    },
    async startOwnershipChallenge(req, ctx) {
      const challenge = await uc.ownership.challenge(requirePlatform(ctx), req.id, ownerOf(req.owner), {
        method: req.method,
      });
      return { challenge: ownershipChallengeMessage(challenge) };
    },
    async verifyOwnership(req, ctx) {
      return {
        account: externalAccountMessage(
          await uc.ownership.verify(requirePlatform(ctx), req.id, ownerOf(req.owner), {
            signature: req.signature,
            signatureScheme: req.signatureScheme,
          }),
        ),
      };
    },
  };
}
