import { AccountsServiceService } from '../../../gen/accounts/v1/accounts';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { Customers } from '../app/customers';
import type { ExternalAccounts } from '../app/external-accounts';
import type { InternalAccounts } from '../app/internal-accounts';
import type { OwnershipVerification } from '../app/ownership-verification';
import type { FindUmaAddressHolders, GetPaymentParties } from '../app/payment-parties';
import type { PlatformConfigs } from '../app/platform-configs';
import type { Platforms } from '../app/platforms';
import type { EndUserTermsCatalogue } from '../domain/end-user-terms';
import { platformConfigMessage } from './config-mappers';
import { externalAccountHandlers } from './external-account-handlers';
import { pageOf } from './page-message';
import {
  customerMessage,
  externalAccountMessage,
  internalAccountMessage,
  internalAccountSummaryMessage,
  platformMessage,
} from './proto-mappers';

export interface AccountsUseCases {
  platforms: Platforms;
  platformConfigs: PlatformConfigs;
  terms: EndUserTermsCatalogue;
  /** Only APPROVED customers may send money (otherwise only REJECTED and HOLD are stopped). */
  paymentsRequireKycApproval?: boolean;
  customers: Customers;
  internalAccounts: InternalAccounts;
  externalAccounts: ExternalAccounts;
  ownership: OwnershipVerification;
  getPaymentParties: GetPaymentParties;
  findUmaAddressHolders: FindUmaAddressHolders;
}

/** Decode, call one use case with the caller's platform, encode. */
export function bindAccountsService(uc: AccountsUseCases) {
  const customer = (c: Parameters<typeof customerMessage>[0]) =>
    customerMessage(c, uc.terms, uc.paymentsRequireKycApproval);
  return bindService(AccountsServiceService, {
    async ensurePlatform(req) {
      const { platform, created } = await uc.platforms.ensure(req);
      return { platform: platformMessage(platform), created };
    },
    async getPlatform(_req, ctx) {
      return { platform: platformMessage(await uc.platforms.get(requirePlatform(ctx))) };
    },
    async getPlatformConfig(_req, ctx) {
      return { config: platformConfigMessage(await uc.platformConfigs.get(requirePlatform(ctx))) };
    },
    async getWebhookEndpoint(_req, ctx) {
      const platformId = requirePlatform(ctx);
      const [url, extensionTypes] = await Promise.all([
        uc.platformConfigs.webhookEndpoint(platformId),
        uc.platformConfigs.webhookExtensionTypes(platformId),
      ]);
      return { url: url ?? '', extensionTypes };
    },
    async updatePlatformConfig(req, ctx) {
      return {
        config: platformConfigMessage(
          await uc.platformConfigs.update(requirePlatform(ctx), req.changes ?? {}, ctx.fieldErrors),
        ),
      };
    },
    async getEndUserTerms() {
      return { version: uc.terms.version, url: uc.terms.url };
    },

    async createCustomer(req, ctx) {
      return { customer: customer(await uc.customers.create(requirePlatform(ctx), req.customer, ctx.fieldErrors)) };
    },
    async getCustomer(req, ctx) {
      return { customer: customer(await uc.customers.get(requirePlatform(ctx), req.id)) };
    },
    async listCustomers(req, ctx) {
      const { limit, cursor, ...query } = req;
      const page = pageOf(await uc.customers.list(requirePlatform(ctx), { ...query, limit, cursor }), customer);
      return { customers: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async updateCustomer(req, ctx) {
      const outcome = await uc.customers.update({
        platformId: requirePlatform(ctx),
        id: req.id,
        changes: req.changes,
        signature: req.signature ?? {},
        shapeErrors: ctx.fieldErrors,
      });
      if (outcome.kind === 'CHALLENGE') return { challenge: outcome.challenge };
      if (outcome.kind === 'PROCESSING') return { processing: { message: outcome.message } };
      return { customer: customer(outcome.customer) };
    },

    async deleteCustomer(req, ctx) {
      return { customer: customer(await uc.customers.remove(requirePlatform(ctx), req.id)) };
    },

    async getInternalAccount(req, ctx) {
      return { account: internalAccountMessage(await uc.internalAccounts.get(requirePlatform(ctx), req.id)) };
    },
    async listInternalAccounts(req, ctx) {
      const page = pageOf(
        await uc.internalAccounts.listForCustomers(requirePlatform(ctx), req),
        internalAccountMessage,
      );
      return { accounts: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async listPlatformInternalAccounts(req, ctx) {
      const accounts = await uc.internalAccounts.listForPlatform(requirePlatform(ctx), req);
      return { accounts: accounts.map(internalAccountMessage) };
    },
    async getPaymentParties(req, ctx) {
      const parties = await uc.getPaymentParties(requirePlatform(ctx), req);
      return {
        customers: parties.customers.map(customer),
        internalAccounts: parties.internalAccounts.map(internalAccountSummaryMessage),
        externalAccounts: parties.externalAccounts.map(externalAccountMessage),
        platformConfig: parties.platformConfig && platformConfigMessage(parties.platformConfig),
      };
    },

    async findUmaAddressHolders(req) {
      const holders = await uc.findUmaAddressHolders(req.umaAddress);
      return {
        holders: holders.map((h) => ({
          platformId: h.platformId,
          customer: customer(h.customer),
          holdingAccounts: h.holdingAccounts.map(internalAccountSummaryMessage),
        })),
      };
    },

    ...externalAccountHandlers(uc),
  });
}
