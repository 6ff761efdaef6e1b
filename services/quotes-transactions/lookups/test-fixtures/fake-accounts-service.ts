import type { ExternalAccountInfo } from '../../../../gen/accounts/v1/external_account_info';
import {
  AccountsServiceService,
  Customer,
  ExternalAccount,
  InternalAccount,
  Customer_Type,
  InternalAccount_Type,
  InternalAccount_Status,
  ExternalAccount_Status,
} from '../../../../gen/accounts/v1/accounts';
import { AppError, unlessAbsent } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { requirePlatform } from '../../../../lib/grpc/call-context';
import { bindService, type UnaryHandlers } from '../../../../lib/grpc/service-binding';

type Handlers = UnaryHandlers<typeof AccountsServiceService>;

/**
 * A stand-in AccountsService with the platform scoping of the real one: another platform's
 * record answers NOT_FOUND (accounts) or USER_NOT_FOUND (customers), exactly like a missing one.
 * Only the RPCs the lookup uses are implemented (GetPaymentParties from the single-record ones).
 */
export function createFakeAccountsService() {
  const customers = new Map<string, { platformId: string; customer: Customer }>();
  const internal = new Map<string, { platformId: string; account: InternalAccount }>();
  const external = new Map<string, { platformId: string; account: ExternalAccount }>();

  const implemented: Pick<
    Handlers,
    'getCustomer' | 'listInternalAccounts' | 'getExternalAccount' | 'getPaymentParties' | 'findUmaAddressHolders'
  > = {
    async getCustomer(request, ctx) {
      const found = customers.get(request.id);
      if (!found || found.platformId !== requirePlatform(ctx)) {
        throw new AppError('USER_NOT_FOUND', 'Customer not found');
      }
      return { customer: found.customer };
    },
    async listInternalAccounts(request, ctx) {
      const platformId = requirePlatform(ctx);
      const accounts = [...internal.values()]
        .filter((a) => a.platformId === platformId && a.account.customerId === request.customerId)
        .map((a) => a.account)
        .slice(0, request.limit || 20);
      return { accounts, hasMore: false, totalCount: accounts.length };
    },
    async getExternalAccount(request, ctx) {
      const found = external.get(request.id);
      if (!found || found.platformId !== requirePlatform(ctx)) {
        throw new AppError('REFERENCE_NOT_FOUND', 'External account not found');
      }
      return { account: found.account };
    },
    async findUmaAddressHolders(request) {
      const holders = [...customers.values()].filter((c) =>
        request.umaAddress && c.customer.umaAddress === request.umaAddress
      );
      return {
        holders: holders.map(({ platformId, customer }) => ({
          platformId,
          customer,
          holdingAccounts: [...internal.values()].filter((a) =>
            a.platformId === platformId && a.account.customerId === customer.id
          )
            .map(({ account: a }) => ({
              id: a.id,
              customerId: a.customerId,
              type: a.type,
              status: a.status,
              currency: a.balance?.currency?.code ?? '',
            })),
        })),
      };
    },
    async getPaymentParties(request, ctx) {
      const customerIds = [...new Set([...request.customerIds, ...request.holdingsOfCustomerIds])];
      const found = await Promise.all(customerIds.map((id) => unlessAbsent(implemented.getCustomer({ id }, ctx))));
      const customerList = found.flatMap((r) => (r?.customer ? [r.customer] : []));
      const holdings = await Promise.all(
        request.holdingsOfCustomerIds.filter((id) => customerList.some((c) => c.id === id && c.currencies.length === 0))
          .map((customerId) => implemented.listInternalAccounts({ customerId, limit: 50 }, ctx)),
      );
      const externals = await Promise.all(
        request.externalAccountIds.map((id) => unlessAbsent(implemented.getExternalAccount({ id }, ctx))),
      );
      return {
        customers: customerList.filter((c) => request.customerIds.includes(c.id)),
        internalAccounts: holdings.flatMap((page) => page.accounts).map((a) => ({
          id: a.id,
          customerId: a.customerId,
          type: a.type,
          status: a.status,
          currency: a.balance?.currency?.code ?? '',
        })),
        externalAccounts: externals.flatMap((r) => (r?.account ? [r.account] : [])),
      };
    },
  };
  const notImplemented = async () => {
    throw new AppError('INTERNAL_ERROR', 'not implemented by the fake');
  };
  const others = Object.fromEntries(Object.keys(AccountsServiceService).map((m) => [m, notImplemented]));
  const handlers = { ...others, ...implemented } as Handlers;

  return {
    binding: bindService(AccountsServiceService, handlers),
    addCustomer(platformId: string, id: string, options: { isDeleted?: boolean; internalCurrency?: string } = {}) {
      customers.set(id, {
        platformId,
        customer: Customer.fromPartial({
          id,
          customerType: Customer_Type.INDIVIDUAL,
          isDeleted: options.isDeleted ?? false,
        }),
      });
      if (options.internalCurrency) {
        const account = InternalAccount.fromPartial({
          id: newId('InternalAccount'),
          customerId: id,
          type: InternalAccount_Type.INTERNAL_FIAT,
          status: InternalAccount_Status.ACTIVE,
          balance: {
            amount: 0,
            currency: { code: options.internalCurrency, name: options.internalCurrency, symbol: '', decimals: 2 },
          },
        });
        internal.set(account.id, { platformId, account });
      }
    },
    addExternalAccount(
      platformId: string,
      options: { id?: string; currency: string; accountInfo: Record<string, unknown> },
    ): string {
      const id = options.id ?? newId('ExternalAccount');
      external.set(id, {
        platformId,
        account: ExternalAccount.fromPartial({
          id,
          status: ExternalAccount_Status.ACTIVE,
          currency: options.currency,
          accountInfo: options.accountInfo as unknown as ExternalAccountInfo,
        }),
      });
      return id;
    },
  };
}
