import type { PageQuery } from '../../../../lib/page-cursor';
import type {
  BurnRail,
  GridOperationsStatus,
  IssuanceStatus,
  OperationSourceType,
  ProviderAccountStatus,
  ProviderEnvironment,
  StablecoinOperationStatus,
  StablecoinOperationType,
} from '../domain/stablecoin-operation';

/** The provider's API credentials, opened from their sealed form only for the call. */
export interface ProviderCredentials {
  clientId: string;
  clientSecret: string;
  environment: ProviderEnvironment;
}

/**
 * `revoked`: the provider refuses the client credentials themselves (OAuth invalid_client): they were revoked or
 * deleted.
 */
export type CredentialCheck = { valid: true; accountIds: string[] } | {
  valid: false;
  reason: string;
  revoked?: boolean;
};

export interface ProviderToken {
  name: string;
  symbol: string;
  decimals: number;
  baseCurrency: string;
  issuanceStatus: IssuanceStatus;
}

/** One side of a provider transfer: what value moves on which rail, and the party's Grid account. */
export interface TransferEnd {
  valueType: string;
  transferType: string;
  /**
   * The Grid account (ExternalAccount:/InternalAccount:) the provider address stands for; absent: the provider account
   * itself.
   */
  gridAccountId?: string;
}

export interface ProviderTransferRequest {
  /** Minor units of `currency`. */
  amountCents: number;
  currency: string;
  source: TransferEnd;
  destination: TransferEnd;
  /** The issuer sends the funds itself (a wire, a token deposit): the transfer answers funding instructions. */
  awaitsDeposit: boolean;
}

export interface ProviderTransfer {
  id: string;
  /** The provider's own word (Brale: pending, processing, complete, canceled, failed). */
  status: string;
  /** Public instructions for funds the issuer sends (wire details, a deposit address). */
  fundingInstructions?: Record<string, string>;
}

/** The provider could not be reached or answered 5xx/429 after the bounded retries: try again later. */
export class ProviderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}

/** The provider refused the request for good (4xx other than 429). */
export class ProviderRejected extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'ProviderRejected';
  }
}

/** The platform already created an operation under this Idempotency-Key. */
export class OperationKeyTaken extends Error {
  constructor(readonly key: string) {
    super(`idempotency key ${key} already used`);
    this.name = 'OperationKeyTaken';
  }
}

/** The provider refuses the client credentials themselves (OAuth invalid_client): revoked at the provider. */
export class ProviderCredentialsRevoked extends ProviderRejected {
  constructor(message: string) {
    super(message, 401);
    this.name = 'ProviderCredentialsRevoked';
  }
}

/**
 * The stablecoin provider (Brale, or the embedded sandbox). Creating a transfer is idempotent
 * under `idempotencyKey`: the same key answers the same transfer, so a retry never mints twice.
 */
export interface StablecoinProvider {
  verifyCredentials(credentials: ProviderCredentials): Promise<CredentialCheck>;
  token(credentials: ProviderCredentials, accountId: string, valueType: string): Promise<ProviderToken | undefined>;
  createTransfer(
    credentials: ProviderCredentials,
    accountId: string,
    request: ProviderTransferRequest,
    idempotencyKey: string,
  ): Promise<ProviderTransfer>;
  getTransfer(credentials: ProviderCredentials, accountId: string, transferId: string): Promise<ProviderTransfer>;
}

export interface SecretSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

export interface ProviderAccountRecord {
  id: string;
  platformId: string;
  provider: 'BRALE';
  providerAccountId: string;
  providerEnvironment: ProviderEnvironment;
  status: ProviderAccountStatus;
  clientId: string;
  sealedSecret: string;
  lastVerifiedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface StablecoinRecord {
  id: string;
  platformId: string;
  name: string;
  symbol: string;
  baseCurrency: string;
  network: 'SPARK';
  decimals: number;
  issuanceStatus: IssuanceStatus;
  gridOperationsStatus: GridOperationsStatus;
  /** The Grid currency code once enabled for Grid operations (the symbol). */
  currency?: string;
  networkTokenIdentifier: string;
  provider: 'BRALE';
  stablecoinProviderAccountId: string;
  providerEnvironment: ProviderEnvironment;
  providerTokenIdentifier: string;
  createdAt: string;
  updatedAt: string;
}

export interface OperationSource {
  type: OperationSourceType;
  externalAccountId?: string;
  accountId?: string;
  sourceTokenIdentifier?: string;
  cryptoNetwork?: string;
}

export interface OperationDestination {
  accountId: string;
  rail?: BurnRail;
}

export interface OperationRecord {
  id: string;
  platformId: string;
  stablecoinId: string;
  operationType: StablecoinOperationType;
  status: StablecoinOperationStatus;
  amount: string;
  /** The amount in fiat cents of the stablecoin's base currency. */
  cents: number;
  currency: string;
  valueType: string;
  provider: 'BRALE';
  providerEnvironment: ProviderEnvironment;
  stablecoinProviderAccountId: string;
  source: OperationSource;
  destination: OperationDestination;
  fundingInstructions?: Record<string, string>;
  estimatedDelivery?: { rail: string; amount: string; currency: string; timing: string };
  expiresAt?: string;
  providerTransferId?: string;
  providerStatus?: string;
  failureReason?: string;
  description?: string;
  /** The request's Idempotency-Key and request fingerprint, written with the operation itself. */
  idempotency?: { key: string; hash: string };
  /** GRID_INTERNAL_ACCOUNT: whether the ledger debit is in, and whether it was refunded. */
  ledgerDebited?: boolean;
  ledgerRefunded?: boolean;
  /** The worker's schedule: when it looks at the operation next, and its provider failures in a row (the backoff). */
  nextAttemptAt?: string;
  failedAttempts?: number;
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  totalCount: number;
}

export interface StablecoinStore {
  insertAccount(record: ProviderAccountRecord): Promise<void>;
  account(platformId: string, id: string): Promise<ProviderAccountRecord | null>;
  updateAccount(id: string, changes: Partial<ProviderAccountRecord>): Promise<ProviderAccountRecord | null>;
  accounts(
    platformId: string,
    filter: { provider?: string; status?: string; environment?: string },
    page: PageQuery,
  ): Promise<Page<ProviderAccountRecord>>;
  insertStablecoin(record: StablecoinRecord): Promise<void>;
  stablecoin(platformId: string, id: string): Promise<StablecoinRecord | null>;
  updateStablecoin(id: string, changes: Partial<StablecoinRecord>): Promise<StablecoinRecord | null>;
  stablecoins(
    platformId: string,
    filter: { issuanceStatus?: string; gridOperationsStatus?: string; provider?: string },
    page: PageQuery,
  ): Promise<Page<StablecoinRecord>>;
  /** Throws OperationKeyTaken when the platform's operations already hold its idempotency key. */
  insertOperation(record: OperationRecord): Promise<void>;
  operationByIdempotencyKey(platformId: string, key: string): Promise<OperationRecord | null>;
  operation(platformId: string, id: string): Promise<OperationRecord | null>;
  operations(
    platformId: string,
    stablecoinId: string,
    filter: { operationType?: string },
    page: PageQuery,
  ): Promise<Page<OperationRecord>>;
  /** Applies `changes` only while the operation is in one of `from`; answers the record after, or null. */
  moveOperation(
    id: string,
    from: StablecoinOperationStatus[],
    changes: Partial<OperationRecord>,
  ): Promise<OperationRecord | null>;
  /** Records a fact that does not change the status (the ledger debit, provider transfer id). */
  noteOperation(id: string, changes: Partial<OperationRecord>): Promise<void>;
  /**
   * Operations not finished and due at `now`, the longest waiting first (never attempted, then by nextAttemptAt), for
   * the worker.
   */
  unfinishedOperations(limit: number, now: string): Promise<OperationRecord[]>;
}
