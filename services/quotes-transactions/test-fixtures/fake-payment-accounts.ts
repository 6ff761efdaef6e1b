import type { ExternalAccountInfo } from '../../../gen/accounts/v1/external_account_info';
import {
  AccountsServiceService,
  Customer,
  ExternalAccount,
  InternalAccount,
  Customer_Type,
  InternalAccount_Type,
  InternalAccount_Status,
  ExternalAccount_Status,
} from '../../../gen/accounts/v1/accounts';
import { PlatformConfig, type FeeConfig, type TransactionLimit } from '../../../gen/accounts/v1/platform_config';
import { AppError, unlessAbsent } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { requirePlatform, type CallContext } from '../../../lib/grpc/call-context';
import { bindService, type UnaryHandlers } from '../../../lib/grpc/service-binding';
import { findCurrency } from '../shared/domain/currency-catalogue';

type Handlers = UnaryHandlers<typeof AccountsServiceService>;
type Owned<T> = { platformId: string; record: T };

/**
 * A stand-in AccountsService for payment tests, with the platform scoping of the real one. It
 * implements what lookups and payments read: customers, internal and external accounts, the
 * platform configuration, and GetPaymentParties composed from those single-record reads.
 */
export function createFakePaymentAccounts() {
  const customers = new Map<string, Owned<Customer>>();
  const internal = new Map<string, Owned<InternalAccount>>();
  const external = new Map<string, Owned<ExternalAccount>>();
  const configs = new Map<string, PlatformConfig>();
  const mine = <T>(map: Map<string, Owned<T>>, ctx: CallContext) =>
    [...map.values()].filter((o) => o.platformId === requirePlatform(ctx)).map((o) => o.record);
  const one = <T>(
    map: Map<string, Owned<T>>,
    id: string,
    ctx: CallContext,
    code: 'REFERENCE_NOT_FOUND' | 'USER_NOT_FOUND',
  ) => {
    const found = map.get(id);
    if (!found || found.platformId !== requirePlatform(ctx)) throw new AppError(code, `${id} not found`);
    return found.record;
  };
  const currencyOf = (a: InternalAccount) => a.balance?.currency?.code;

  const implemented: Partial<Handlers> = {
    async getCustomer(r, ctx) {
      return { customer: one(customers, r.id, ctx, 'USER_NOT_FOUND') };
    },
    async listCustomers(r, ctx) {
      const list = mine(customers, ctx).filter((c) => !r.umaAddress || c.umaAddress === r.umaAddress);
      return { customers: list.slice(0, r.limit || 20), hasMore: false, totalCount: list.length };
    },
    async getInternalAccount(r, ctx) {
      return { account: one(internal, r.id, ctx, 'REFERENCE_NOT_FOUND') };
    },
    async listInternalAccounts(r, ctx) {
      const list = mine(internal, ctx).filter((a) =>
        a.customerId && (!r.customerId || a.customerId === r.customerId)
        && (!r.currency || currencyOf(a) === r.currency)
      );
      return { accounts: list.slice(0, r.limit || 20), hasMore: false, totalCount: list.length };
    },
    async listPlatformInternalAccounts(r, ctx) {
      return {
        accounts: mine(internal, ctx).filter((a) => !a.customerId && (!r.currency || currencyOf(a) === r.currency)),
      };
    },
    async getExternalAccount(r, ctx) {
      return { account: one(external, r.id, ctx, 'REFERENCE_NOT_FOUND') };
    },
    // The fake's platforms have no webhook endpoint: their incoming payments are not asked for approval.
    async getWebhookEndpoint() {
      return { url: '', extensionTypes: [] };
    },
    async getPlatformConfig(_r, ctx) {
      const config = configs.get(requirePlatform(ctx));
      if (!config) throw new AppError('REFERENCE_NOT_FOUND', 'Platform not found');
      return { config };
    },
    async findUmaAddressHolders(r) {
      const holders = [...customers.values()].filter((c) => r.umaAddress && c.record.umaAddress === r.umaAddress);
      return {
        holders: holders.map(({ platformId, record }) => ({
          platformId,
          customer: record,
          holdingAccounts: [...internal.values()].filter((a) =>
            a.platformId === platformId && a.record.customerId === record.id && a.record.type !== 'EMBEDDED_WALLET'
          )
            .map(({ record: a }) => ({
              id: a.id,
              customerId: a.customerId,
              type: a.type,
              status: a.status,
              currency: currencyOf(a) ?? '',
            })),
        })),
      };
    },
    async getPaymentParties(r, ctx) {
      const read = <T>(ids: string[], get: (id: string) => Promise<T>) =>
        Promise.all([...new Set(ids)].map((id) => unlessAbsent(get(id))));
      const internals = (await read(r.internalAccountIds, (id) => implemented.getInternalAccount!({ id }, ctx)))
        .flatMap((x) => (x?.account ? [x.account] : []));
      const externals = (await read(r.externalAccountIds, (id) => implemented.getExternalAccount!({ id }, ctx)))
        .flatMap((x) => (x?.account ? [x.account] : []));
      const owners = r.includeOwners
        ? [...internals, ...externals].flatMap((a) => (a.customerId ? [a.customerId] : []))
        : [];
      const customerIds = [...r.customerIds, ...owners];
      const found =
        (await read([...customerIds, ...r.holdingsOfCustomerIds], (id) => implemented.getCustomer!({ id }, ctx)))
          .flatMap((x) => (x?.customer ? [x.customer] : []));
      const holdings = await Promise.all(
        r.holdingsOfCustomerIds.filter((id) => found.some((c) => c.id === id && c.currencies.length === 0))
          .map((customerId) => implemented.listInternalAccounts!({ customerId, limit: 50 }, ctx)),
      );
      const config = r.includePlatformConfig
        ? (await unlessAbsent(implemented.getPlatformConfig!({}, ctx)))?.config
        : undefined;
      const summary = (a: InternalAccount) => ({
        id: a.id,
        customerId: a.customerId,
        type: a.type,
        status: a.status,
        currency: currencyOf(a) ?? '',
      });
      return {
        customers: found.filter((c) => customerIds.includes(c.id)),
        internalAccounts: [...internals, ...holdings.flatMap((page) => page.accounts)].map(summary),
        externalAccounts: externals,
        ...(config ? { platformConfig: config } : {}),
      };
    },
  };
  const notImplemented = async () => {
    throw new AppError('INTERNAL_ERROR', 'not implemented by the fake');
  };
  const all = {
    ...Object.fromEntries(Object.keys(AccountsServiceService).map((m) => [m, notImplemented])),
    ...implemented,
  } as Handlers;
  /** The RPCs served, in order (tests count what an operation reads). */
  const calls: string[] = [];
  const handlers = Object.fromEntries(
    Object.entries(all).map(([method, handler]) => [method, (request: never, ctx: CallContext) => {
      calls.push(method);
      return (handler as (r: never, c: CallContext) => Promise<unknown>)(request, ctx);
    }]),
  ) as unknown as Handlers;

  return {
    calls,
    binding: bindService(AccountsServiceService, handlers),
    addCustomer(
      platformId: string,
      options: { umaAddress?: string; platformCustomerId?: string; acceptsCurrentTerms?: boolean } = {},
    ): string {
      const id = newId('Customer');
      customers.set(id, {
        platformId,
        record: Customer.fromPartial({
          id,
          customerType: Customer_Type.INDIVIDUAL,
          platformCustomerId: options.platformCustomerId ?? `pc-${id.slice(9, 17)}`,
          umaAddress: options.umaAddress ?? '',
          acceptsCurrentTerms: options.acceptsCurrentTerms ?? true,
        }),
      });
      return id;
    },
    addInternalAccount(
      platformId: string,
      options: { currency: string; customerId?: string; type?: string; status?: string },
    ): string {
      const id = newId('InternalAccount');
      const currency = findCurrency(options.currency)
        ?? { code: options.currency, name: options.currency, symbol: '', decimals: 2 };
      const balance = { amount: 0, currency };
      internal.set(id, {
        platformId,
        record: InternalAccount.fromPartial({
          id,
          customerId: options.customerId,
          type: (options.type ?? 'INTERNAL_FIAT') as InternalAccount_Type,
          status: (options.status ?? 'ACTIVE') as InternalAccount_Status,
          balance,
          totalBalance: balance,
        }),
      });
      return id;
    },
    /** What PATCH /config would store: fee configs and limits. */
    configure(platformId: string, settings: { feeConfigs?: FeeConfig[]; limits?: TransactionLimit[] }) {
      configs.set(platformId, PlatformConfig.fromPartial({ id: platformId, ...settings }));
    },
    addExternalAccount(
      platformId: string,
      options: { currency: string; accountInfo: Record<string, unknown>; customerId?: string; status?: string },
    ): string {
      const id = newId('ExternalAccount');
      external.set(id, {
        platformId,
        record: ExternalAccount.fromPartial({
          id,
          customerId: options.customerId,
          status: (options.status ?? 'ACTIVE') as ExternalAccount_Status,
          currency: options.currency,
          accountInfo: options.accountInfo as unknown as ExternalAccountInfo,
        }),
      });
      return id;
    },
  };
}

export type FakePaymentAccounts = ReturnType<typeof createFakePaymentAccounts>;
