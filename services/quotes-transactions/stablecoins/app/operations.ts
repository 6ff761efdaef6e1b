import { AppError, type FieldError } from '../../../../lib/errors';
import { isId, newId } from '../../../../lib/ids';
import { requestFingerprint } from '../../../../lib/idempotency-key';
import { pageQuery } from '../../../../lib/page-cursor';
import {
  awaitsExternalFunds,
  BURN_RAILS,
  BURN_SOURCE_TYPES,
  fiatCentsOf,
  MINT_FUNDING_SOURCE_TYPES,
  RAIL_TIMING,
  type BurnRail,
  type StablecoinOperationType,
} from '../domain/stablecoin-operation';
import type { Caller, PaymentAccounts } from '../../shared/app/payment-accounts';
import type { OperationProgress } from './operation-progress';
import type { ProviderAccounts } from './provider-accounts';
import type { Stablecoins } from './stablecoins';
import {
  OperationKeyTaken,
  type OperationDestination,
  type OperationRecord,
  type OperationSource,
  type Page,
  type StablecoinRecord,
  type StablecoinStore,
} from './stablecoin-ports';

export interface OperationRequest {
  stablecoinId: string;
  amount: string;
  source: OperationSource;
  destination: { accountId: string; rail?: string; type?: string };
  description?: string;
  /** Recorded in the write that creates the operation: a repeat answers that operation. */
  idempotencyKey?: string;
}

export interface OperationDeps {
  store: StablecoinStore;
  stablecoins: Stablecoins;
  accounts: ProviderAccounts;
  paymentAccounts: PaymentAccounts;
  progress: OperationProgress;
  clock: () => Date;
  /** How long an operation waits for funds the issuer sends (wire, on-chain deposit) before it expires. */
  fundingWindowMs: number;
}

/**
 * Mints and burns: checked, recorded as CREATED (with the request's Idempotency-Key, in the same
 * write), then handed to the provider. A keyed repeat answers the operation its key created, even
 * after a crash left that one CREATED (the worker submits or refunds it), and never creates a second.
 */
/** One page of a stablecoin's operations, optionally of one type. */
export interface OperationsPageRequest {
  caller: Caller;
  stablecoinId: string;
  filter: { operationType?: string };
  limit: number;
  cursor?: string;
}

export function createStablecoinOperations(deps: OperationDeps) {
  async function create(
    caller: Caller,
    type: StablecoinOperationType,
    keyed: OperationRequest,
  ): Promise<OperationRecord> {
    const { idempotencyKey, ...request } = keyed;
    const idempotency = idempotencyKey
      ? { key: idempotencyKey, hash: requestFingerprint({ type, request }) }
      : undefined;
    if (idempotency) {
      const earlier = await deps.store.operationByIdempotencyKey(caller.platformId, idempotency.key);
      if (earlier) return answer(sameOperationOrConflict(earlier, idempotency.hash));
    }
    const stablecoin = await deps.stablecoins.get(caller, request.stablecoinId);
    const errors: FieldError[] = [];
    const cents = fiatCentsOf(request.amount, stablecoin.decimals);
    if (cents === undefined) {
      errors.push({
        field: 'amount',
        message: `must be a positive whole number of the token's smallest unit worth a `
          + `whole ${stablecoin.baseCurrency} cent (${stablecoin.decimals} decimals)`,
      });
    }
    checkSourceShape(type, request.source, errors);
    if (type === 'BURN' && !BURN_RAILS.includes(request.destination.rail as BurnRail)) {
      errors.push({ field: 'destination.rail', message: `must be one of ${BURN_RAILS.join(', ')}` });
    }
    if (errors.length) throw AppError.invalidInput(`Invalid stablecoin ${type.toLowerCase()} request`, errors);
    if (stablecoin.issuanceStatus !== 'PROVISIONED') {
      throw new AppError(
        'INVALID_STATE',
        `Stablecoin ${stablecoin.id} is ${stablecoin.issuanceStatus} at the provider`,
      );
    }
    const link = deps.accounts.ensureUsable(
      await deps.accounts.byId(caller.platformId, stablecoin.stablecoinProviderAccountId),
    );
    await checkAccounts(caller, type, stablecoin, request);

    const now = deps.clock();
    const destination: OperationDestination = type === 'BURN'
      ? { accountId: request.destination.accountId, rail: request.destination.rail as BurnRail }
      : { accountId: request.destination.accountId };
    const record: OperationRecord = {
      id: newId('StablecoinOperation'),
      platformId: caller.platformId,
      stablecoinId: stablecoin.id,
      operationType: type,
      status: 'CREATED',
      amount: request.amount,
      cents: cents!,
      currency: stablecoin.baseCurrency,
      valueType: stablecoin.providerTokenIdentifier,
      provider: 'BRALE',
      providerEnvironment: link.providerEnvironment,
      stablecoinProviderAccountId: link.id,
      source: request.source,
      destination,
      ...(type === 'BURN'
        ? {
          estimatedDelivery: {
            rail: destination.rail!,
            amount: String(cents),
            currency: stablecoin.baseCurrency,
            timing: RAIL_TIMING[destination.rail!],
          },
        }
        : {}),
      ...(awaitsExternalFunds(type, request.source.type)
        ? { expiresAt: new Date(now.getTime() + deps.fundingWindowMs).toISOString() }
        : {}),
      ...(request.description !== undefined ? { description: request.description } : {}),
      ...(idempotency ? { idempotency } : {}),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    try {
      await deps.store.insertOperation(record);
    } catch (err) {
      if (!(err instanceof OperationKeyTaken)) throw err;
      return answer(
        sameOperationOrConflict(
          (await deps.store.operationByIdempotencyKey(caller.platformId, err.key))!,
          idempotency!.hash,
        ),
      );
    }
    return answer(await deps.progress.submit(record));
  }

  /** What creating the operation answers: the operation, or the refusal its funding met. */
  function answer(op: OperationRecord): OperationRecord {
    if (op.status === 'FAILED' && op.failureReason === 'INSUFFICIENT_BALANCE') {
      const message = `Internal account ${op.source.accountId} holds less than ${op.cents} ${op.currency} minor units`;
      throw new AppError('INSUFFICIENT_BALANCE', message, { stablecoinOperationId: op.id });
    }
    return op;
  }

  /** The accounts named exist on the caller's platform and fit the operation. */
  async function checkAccounts(
    caller: Caller,
    type: StablecoinOperationType,
    stablecoin: StablecoinRecord,
    request: OperationRequest,
  ) {
    const { source } = request;
    if (source.externalAccountId) {
      const funding = await deps.paymentAccounts.externalAccount(caller, source.externalAccountId);
      if (!funding) throw AppError.notFound(`External account ${source.externalAccountId}`);
      if (funding.currency !== stablecoin.baseCurrency) {
        throw new AppError(
          'INVALID_CURRENCY',
          `External account ${funding.id} is in ${funding.currency}, not ${stablecoin.baseCurrency}`,
        );
      }
    }
    if (source.type === 'GRID_INTERNAL_ACCOUNT') {
      const internal = await deps.paymentAccounts.internalAccount(caller, source.accountId!);
      if (!internal) throw AppError.notFound(`Internal account ${source.accountId}`);
      const expected = type === 'MINT' ? stablecoin.baseCurrency : stablecoin.providerTokenIdentifier;
      if (type === 'BURN' && !Number.isSafeInteger(Number(request.amount))) {
        throw new AppError('INVALID_AMOUNT', 'The amount is larger than an internal account can hold');
      }
      if (internal.currency !== expected) {
        throw new AppError(
          'INVALID_CURRENCY',
          `Internal account ${internal.id} holds ${internal.currency}; this ${type.toLowerCase()} needs ${expected}`,
        );
      }
    }
    const target = request.destination.accountId;
    if (isId('InternalAccount', target)) {
      if (type === 'BURN') {
        throw AppError.invalidInput('Invalid burn destination', [{
          field: 'destination.externalAccountId',
          message: 'must be an ExternalAccount id',
        }]);
      }
      if (!(await deps.paymentAccounts.internalAccount(caller, target))) {
        throw AppError.notFound(`Internal account ${target}`);
      }
      return;
    }
    const external = await deps.paymentAccounts.externalAccount(caller, target);
    if (!external) throw AppError.notFound(`External account ${target}`);
    if (type === 'MINT' && external.accountType !== 'SPARK_WALLET') {
      throw AppError.invalidInput('Invalid mint destination', [{
        field: 'destination.accountId',
        message: 'must be a Spark wallet external account (SPARK_WALLET)',
      }]);
    }
    if (type === 'BURN' && external.currency !== stablecoin.baseCurrency) {
      throw new AppError(
        'INVALID_CURRENCY',
        `External account ${external.id} is in ${external.currency}, not ${stablecoin.baseCurrency}`,
      );
    }
  }

  async function get(caller: Caller, id: string): Promise<OperationRecord> {
    const record = await deps.store.operation(caller.platformId, id);
    if (!record) throw AppError.notFound(`Stablecoin operation ${id}`);
    return record;
  }

  async function list(request: OperationsPageRequest): Promise<Page<OperationRecord>> {
    const { caller, stablecoinId, filter, limit, cursor } = request;
    await deps.stablecoins.get(caller, stablecoinId);
    return deps.store.operations(caller.platformId, stablecoinId, filter, pageQuery(limit, cursor));
  }

  return {
    mint: (caller: Caller, r: OperationRequest) => create(caller, 'MINT', r),
    burn: (caller: Caller, r: OperationRequest) => create(caller, 'BURN', r),
    get,
    list,
  };
}

function sameOperationOrConflict(earlier: OperationRecord, hash: string): OperationRecord {
  if (earlier.idempotency?.hash === hash) return earlier;
  throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for another request');
}

function checkSourceShape(type: StablecoinOperationType, source: OperationSource, errors: FieldError[]) {
  const field = type === 'MINT' ? 'fundingSource' : 'source';
  const allowed: readonly string[] = type === 'MINT' ? MINT_FUNDING_SOURCE_TYPES : BURN_SOURCE_TYPES;
  if (!allowed.includes(source.type)) {
    errors.push({ field: `${field}.type`, message: `must be one of ${allowed.join(', ')}` });
    return;
  }
  if (
    (source.type === 'ACH_DEBIT' || source.type === 'SAME_DAY_ACH_DEBIT')
    && !isId('ExternalAccount', source.externalAccountId)
  ) {
    errors.push({ field: `${field}.externalAccountId`, message: 'must be an ExternalAccount id' });
  }
  if (source.type === 'GRID_INTERNAL_ACCOUNT' && !isId('InternalAccount', source.accountId)) {
    errors.push({ field: `${field}.accountId`, message: 'must be an InternalAccount id' });
  }
  if (type === 'MINT' && source.type === 'PROVIDER_INTERNAL_BALANCE') {
    if (!source.sourceTokenIdentifier) errors.push({ field: `${field}.sourceTokenIdentifier`, message: 'is required' });
    if (!source.cryptoNetwork) errors.push({ field: `${field}.cryptoNetwork`, message: 'is required' });
  }
}

export type StablecoinOperations = ReturnType<typeof createStablecoinOperations>;
