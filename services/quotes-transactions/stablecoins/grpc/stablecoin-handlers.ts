import {
  StablecoinServiceService,
  type StablecoinOperationRecord as OperationMessage,
  type StablecoinOperationSource,
  type StablecoinPageRequest,
  type StablecoinProviderAccountRecord as AccountMessage,
  type StablecoinRecord as StablecoinMessage,
} from '../../../../gen/quotes_transactions/v1/stablecoins';
import { bindService } from '../../../../lib/grpc/service-binding';
import { nextPageCursor } from '../../../../lib/page-cursor';
import type { OperationSourceType } from '../domain/stablecoin-operation';
import type { StablecoinOperations } from '../app/operations';
import type { ProviderAccounts } from '../app/provider-accounts';
import type { Stablecoins } from '../app/stablecoins';
import type {
  OperationRecord,
  OperationSource,
  Page,
  ProviderAccountRecord,
  StablecoinRecord,
} from '../app/stablecoin-ports';
import { callerOf, present } from '../../shared/grpc/payment-caller';

function accountMessage(r: ProviderAccountRecord): AccountMessage {
  return {
    id: r.id,
    provider: r.provider,
    providerAccountId: r.providerAccountId,
    providerEnvironment: r.providerEnvironment,
    status: r.status,
    lastVerifiedAt: r.lastVerifiedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function stablecoinMessage(r: StablecoinRecord): StablecoinMessage {
  const { platformId: _platform, ...rest } = r;
  return { ...rest, currency: r.currency };
}

function operationMessage(r: OperationRecord): OperationMessage {
  return {
    id: r.id,
    stablecoinId: r.stablecoinId,
    operationType: r.operationType,
    status: r.status,
    amount: r.amount,
    provider: r.provider,
    providerEnvironment: r.providerEnvironment,
    stablecoinProviderAccountId: r.stablecoinProviderAccountId,
    source: r.source,
    fundingInstructions: r.fundingInstructions ?? {},
    destination: r.destination,
    estimatedDelivery: r.estimatedDelivery,
    expiresAt: r.expiresAt,
    providerStatus: r.providerStatus,
    failureReason: r.failureReason,
    description: r.description,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function pageOf<T extends { id: string; createdAt: string }, M>(page: Page<T>, render: (r: T) => M) {
  return {
    data: page.items.map(render),
    hasMore: page.hasMore,
    nextCursor: nextPageCursor(page.items, page.hasMore),
    totalCount: page.totalCount,
  };
}

const pageArgs = (
  page: StablecoinPageRequest | undefined,
): [number, string | undefined] => [page?.limit ?? 0, present(page?.cursor)];

function sourceOf(m: StablecoinOperationSource | undefined): OperationSource {
  return {
    type: (m?.type ?? '') as OperationSourceType,
    ...(present(m?.externalAccountId) ? { externalAccountId: m!.externalAccountId } : {}),
    ...(present(m?.accountId) ? { accountId: m!.accountId } : {}),
    ...(present(m?.sourceTokenIdentifier) ? { sourceTokenIdentifier: m!.sourceTokenIdentifier } : {}),
    ...(present(m?.cryptoNetwork) ? { cryptoNetwork: m!.cryptoNetwork } : {}),
  };
}

export function bindStablecoinService(
  useCases: { accounts: ProviderAccounts; stablecoins: Stablecoins; operations: StablecoinOperations },
) {
  const { accounts, stablecoins, operations } = useCases;
  return bindService(StablecoinServiceService, {
    async linkStablecoinProviderAccount(request, ctx) {
      return {
        account: accountMessage(
          await accounts.link(callerOf(ctx), { ...request, providerAccountId: present(request.providerAccountId) }),
        ),
      };
    },
    async listStablecoinProviderAccounts(request, ctx) {
      const filter = { provider: present(request.provider), status: present(request.status) };
      return pageOf(await accounts.list(callerOf(ctx), filter, ...pageArgs(request.page)), accountMessage);
    },
    async getStablecoinProviderAccount(request, ctx) {
      return { account: accountMessage(await accounts.get(callerOf(ctx), request.id)) };
    },
    async registerStablecoin(request, ctx) {
      return {
        stablecoin: stablecoinMessage(
          await stablecoins.register(callerOf(ctx), {
            ...request,
            stablecoinProviderAccountId: present(request.stablecoinProviderAccountId),
          }),
        ),
      };
    },
    async listStablecoins(request, ctx) {
      const filter = {
        issuanceStatus: present(request.issuanceStatus),
        gridOperationsStatus: present(request.gridOperationsStatus),
        provider: present(request.provider),
      };
      return pageOf(await stablecoins.list(callerOf(ctx), filter, ...pageArgs(request.page)), stablecoinMessage);
    },
    async getStablecoin(request, ctx) {
      return { stablecoin: stablecoinMessage(await stablecoins.get(callerOf(ctx), request.id)) };
    },
    async createStablecoinMint(request, ctx) {
      const op = await operations.mint(callerOf(ctx), {
        stablecoinId: request.stablecoinId,
        amount: request.amount,
        source: sourceOf(request.fundingSource),
        destination: { accountId: request.destination?.accountId ?? '' },
        description: present(request.description),
        idempotencyKey: present(request.idempotencyKey),
      });
      return { operation: operationMessage(op) };
    },
    async createStablecoinBurn(request, ctx) {
      const op = await operations.burn(callerOf(ctx), {
        stablecoinId: request.stablecoinId,
        amount: request.amount,
        source: sourceOf(request.source),
        destination: { accountId: request.destination?.accountId ?? '', rail: present(request.destination?.rail) },
        description: present(request.description),
        idempotencyKey: present(request.idempotencyKey),
      });
      return { operation: operationMessage(op) };
    },
    async listStablecoinOperations(request, ctx) {
      const [limit, cursor] = pageArgs(request.page);
      const filter = { operationType: present(request.operationType) };
      const { stablecoinId } = request;
      const page = await operations.list({ caller: callerOf(ctx), stablecoinId, filter, limit, cursor });
      return pageOf(page, operationMessage);
    },
    async getStablecoinOperation(request, ctx) {
      return { operation: operationMessage(await operations.get(callerOf(ctx), request.id)) };
    },
  });
}
