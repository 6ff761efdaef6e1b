import { AccountsServiceService } from '../../../gen/accounts/v1/accounts';
import { AppError } from '../../../lib/errors';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { Page } from '../app/accounts-store';
import type { Customers } from '../app/customers';
import type { ExternalAccounts } from '../app/external-accounts';
import type { InternalAccounts } from '../app/internal-accounts';
import { nextCursorOf } from '../app/page-cursor';
import type { Platforms } from '../app/platforms';
import type { ExternalAccountOwner } from '../domain/external-account-validation';
import { customerMessage, externalAccountMessage, internalAccountMessage, platformMessage } from './proto-mappers';

export interface AccountsUseCases {
  platforms: Platforms;
  customers: Customers;
  internalAccounts: InternalAccounts;
  externalAccounts: ExternalAccounts;
}

function pageOf<T extends { id: string; createdAt: string }, M>(page: Page<T>, encode: (item: T) => M) {
  return { items: page.items.map(encode), hasMore: page.hasMore, nextCursor: nextCursorOf(page), totalCount: page.totalCount };
}

function ownerOf(value: string): ExternalAccountOwner | undefined {
  if (value === '') return undefined;
  if (value === 'CUSTOMER' || value === 'PLATFORM') return value;
  throw AppError.invalidInput('Invalid owner', [{ field: 'owner', message: 'must be CUSTOMER or PLATFORM', constraint: { enum: ['CUSTOMER', 'PLATFORM'] } }]);
}

/** Decode, call one use case with the caller's platform, encode. */
export function bindAccountsService(uc: AccountsUseCases) {
  return bindService(AccountsServiceService, {
    async ensurePlatform(req) {
      const { platform, created } = await uc.platforms.ensure(req);
      return { platform: platformMessage(platform), created };
    },
    async getPlatform(_req, ctx) {
      return { platform: platformMessage(await uc.platforms.get(requirePlatform(ctx))) };
    },

    async createCustomer(req, ctx) {
      return { customer: customerMessage(await uc.customers.create(requirePlatform(ctx), req.body)) };
    },
    async getCustomer(req, ctx) {
      return { customer: customerMessage(await uc.customers.get(requirePlatform(ctx), req.id)) };
    },
    async listCustomers(req, ctx) {
      const { limit, cursor, ...query } = req;
      const page = pageOf(await uc.customers.list(requirePlatform(ctx), { ...query, limit, cursor }), customerMessage);
      return { customers: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async updateCustomer(req, ctx) {
      return { customer: customerMessage(await uc.customers.update(requirePlatform(ctx), req.id, req.body)) };
    },

    async getInternalAccount(req, ctx) {
      return { account: internalAccountMessage(await uc.internalAccounts.get(requirePlatform(ctx), req.id)) };
    },
    async listInternalAccounts(req, ctx) {
      const page = pageOf(await uc.internalAccounts.listForCustomers(requirePlatform(ctx), req), internalAccountMessage);
      return { accounts: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async listPlatformInternalAccounts(req, ctx) {
      const accounts = await uc.internalAccounts.listForPlatform(requirePlatform(ctx), req);
      return { accounts: accounts.map(internalAccountMessage) };
    },

    async createExternalAccount(req, ctx) {
      return { account: externalAccountMessage(await uc.externalAccounts.create(requirePlatform(ctx), req.body, 'CUSTOMER')) };
    },
    async createPlatformExternalAccount(req, ctx) {
      return { account: externalAccountMessage(await uc.externalAccounts.create(requirePlatform(ctx), req.body, 'PLATFORM')) };
    },
    async getExternalAccount(req, ctx) {
      return { account: externalAccountMessage(await uc.externalAccounts.get(requirePlatform(ctx), req.id)) };
    },
    async listExternalAccounts(req, ctx) {
      const page = pageOf(await uc.externalAccounts.list(requirePlatform(ctx), 'CUSTOMER', req), externalAccountMessage);
      return { accounts: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async listPlatformExternalAccounts(req, ctx) {
      const page = pageOf(await uc.externalAccounts.list(requirePlatform(ctx), 'PLATFORM', req), externalAccountMessage);
      return { accounts: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async deleteExternalAccount(req, ctx) {
      await uc.externalAccounts.delete(requirePlatform(ctx), req.id, ownerOf(req.owner));
      return {};
    },
    async updateExternalAccountStatus(req, ctx) {
      return { account: externalAccountMessage(await uc.externalAccounts.updateStatus(requirePlatform(ctx), req.id, req.status)) };
    },
  });
}
