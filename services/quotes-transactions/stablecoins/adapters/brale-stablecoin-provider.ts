import { createHash } from 'node:crypto';
import { decimalOfCents } from '../domain/stablecoin-operation';
import {
  ProviderCredentialsRevoked,
  ProviderRejected,
  ProviderUnavailable,
  type CredentialCheck,
  type ProviderCredentials,
  type ProviderToken,
  type ProviderTransfer,
  type ProviderTransferRequest,
  type StablecoinProvider,
  type TransferEnd,
} from '../app/stablecoin-ports';

export interface BraleOptions {
  /** https://api.brale.xyz */
  apiUrl: string;
  /** https://auth.brale.xyz/oauth2/token */
  tokenUrl: string;
  timeoutMs: number;
  /** Attempts per call on a timeout, a network failure, 429 or 5xx. */
  attempts: number;
  /** Longest Retry-After honoured; a longer one is reported as unavailable (the worker tries later). */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** https://docs.brale.xyz/guides/how-to/get-your-address-ids: `type` is internal (custodial) or external. */
interface BraleAddress {
  id: string;
  name?: string;
  status?: string;
  type?: 'internal' | 'external' | string;
  address?: string;
  transfer_types?: string[];
}
/**
 * https://docs.brale.xyz/api-reference/brale/get-transfer; `wire_instructions` from the fiat-to-stablecoin onramp
 * guide.
 */
interface BraleTransfer {
  id: string;
  status: string;
  failure?: unknown;
  wire_instructions?: Record<string, unknown>;
}
/** Brale's custodial Spark address holds the issued tokens. */
const TOKEN_TRANSFER_TYPE = 'spark';

const sleepFor = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * Brale's HTTP API: OAuth 2.0 client credentials (HTTP Basic to the token endpoint, a Bearer
 * token on every call), accounts, addresses and transfers. A transfer is created with the
 * operation's id as its `Idempotency-Key`, so a retried or repeated create is the same transfer.
 * Timeouts, network failures, 429 (after Retry-After) and 5xx are retried a bounded number of times,
 * then reported as ProviderUnavailable; any other 4xx is ProviderRejected.
 *
 * Grid accounts are matched to Brale addresses by the address `name`, which holds the Grid
 * account id (docs/api/stablecoins.md); the account's own (internal) address receives deposits.
 */
/** One request to Brale's API with a platform's credentials; a POST carries its idempotency key. */
interface BraleCall {
  credentials: ProviderCredentials;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotencyKey?: string;
}

export function createBraleStablecoinProvider(options: BraleOptions): StablecoinProvider {
  const sleep = options.sleep ?? sleepFor;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
  const tokens = new Map<string, { token: string; until: number }>();
  const keyOf = (c: ProviderCredentials) =>
    createHash('sha256').update(`${c.clientId}\0${c.clientSecret}`).digest('hex');

  /** One HTTP exchange with retries; answers the status and parsed body of the last attempt that was not transient. */
  async function exchange(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    let lastProblem = 'no attempt made';
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      let wait = 100 * 2 ** (attempt - 1);
      try {
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
        const text = await res.text();
        if (res.status === 429 || res.status >= 500) {
          lastProblem = `HTTP ${res.status}`;
          const retryAfter = Number(res.headers.get('retry-after'));
          if (res.status === 429 && Number.isFinite(retryAfter) && retryAfter >= 0) {
            if (retryAfter * 1000 > maxRetryAfterMs) break;
            wait = retryAfter * 1000;
          }
        } else {
          return { status: res.status, body: text ? safeJson(text) : undefined };
        }
      } catch (err) {
        lastProblem = (err as Error).name === 'TimeoutError'
          ? 'timed out'
          : `network failure (${(err as Error).message})`;
      }
      if (attempt < options.attempts) await sleep(wait);
    }
    throw new ProviderUnavailable(`Brale: ${lastProblem}`);
  }

  async function accessToken(credentials: ProviderCredentials, fresh = false): Promise<string | undefined> {
    const key = keyOf(credentials);
    const cached = tokens.get(key);
    if (cached && !fresh && cached.until > Date.now()) return cached.token;
    const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
    const { status, body } = await exchange(options.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    // OAuth 2.0 (RFC 6749 §5.2): 401 / invalid_client is the credentials themselves refused (revoked, deleted or
    // wrong); another 4xx (e.g. unsupported_grant_type) is a refusal of the request, not of the credentials.
    const oauthError = (body as { error?: string } | undefined)?.error;
    if (status === 401 || oauthError === 'invalid_client' || oauthError === 'unauthorized_client') return undefined;
    if (status >= 400 && status < 500) {
      throw new ProviderRejected(`Brale token endpoint answered ${status}: ${describe(body)}`, status);
    }
    const token = body as { access_token?: string; expires_in?: number } | undefined;
    if (status !== 200 || !token?.access_token) {
      throw new ProviderUnavailable(`Brale token endpoint answered ${status}`);
    }
    tokens.set(key, {
      token: token.access_token,
      until: Date.now() + Math.max(0, (token.expires_in ?? 300) - 30) * 1000,
    });
    return token.access_token;
  }

  async function call({ credentials, method, path, body, idempotencyKey }: BraleCall): Promise<unknown> {
    for (let round = 0; round < 2; round++) {
      const token = await accessToken(credentials, round > 0);
      if (!token) throw new ProviderCredentialsRevoked('Brale refused the client credentials (invalid_client)');
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
      const res = await exchange(`${options.apiUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      if (res.status === 401 && round === 0) continue;
      if (res.status >= 200 && res.status < 300) return res.body;
      throw new ProviderRejected(`Brale ${method} ${path} answered ${res.status}: ${describe(res.body)}`, res.status);
    }
    throw new ProviderRejected('Brale refused the access token', 401);
  }

  async function addresses(credentials: ProviderCredentials, accountId: string): Promise<BraleAddress[]> {
    const body = await call({
      credentials,
      method: 'GET',
      path: `/accounts/${encodeURIComponent(accountId)}/addresses`,
    }) as { addresses?: BraleAddress[] };
    return body?.addresses ?? [];
  }

  async function endOf(
    credentials: ProviderCredentials,
    accountId: string,
    end: TransferEnd,
    known: BraleAddress[],
  ): Promise<Record<string, string>> {
    const out: Record<string, string> = { value_type: end.valueType, transfer_type: end.transferType };
    if (!end.gridAccountId) return out;
    const address = known.find((a) => a.name === end.gridAccountId);
    if (!address) {
      throw new ProviderRejected(
        `Brale account ${accountId} has no address named ${end.gridAccountId}; add it in Brale first`,
        422,
      );
    }
    return { ...out, address_id: address.id };
  }

  return {
    async verifyCredentials(credentials): Promise<CredentialCheck> {
      const token = await accessToken(credentials, true);
      if (!token) {
        return { valid: false, reason: 'Brale refused the client credentials (invalid_client)', revoked: true };
      }
      const body = await call({
        credentials,
        method: 'GET',
        path: '/accounts',
      }) as { accounts?: Array<string | { id: string }> };
      return { valid: true, accountIds: (body?.accounts ?? []).map((a) => (typeof a === 'string' ? a : a.id)) };
    },

    async token(credentials, accountId, valueType): Promise<ProviderToken | undefined> {
      // Brale has no token lookup; a value_type it can hold on the custodial Spark address has a balance
      // (https://docs.brale.xyz/api-reference/brale/get-address-balance, internal addresses only).
      const custodial = (await addresses(credentials, accountId)).find((a) =>
        a.type === 'internal' && (a.transfer_types ?? []).includes(TOKEN_TRANSFER_TYPE)
      );
      if (!custodial) return undefined;
      try {
        const query = `transfer_type=${TOKEN_TRANSFER_TYPE}&value_type=${encodeURIComponent(valueType)}`;
        const address = `/accounts/${encodeURIComponent(accountId)}/addresses/${encodeURIComponent(custodial.id)}`;
        await call({ credentials, method: 'GET', path: `${address}/balance?${query}` });
      } catch (err) {
        if (err instanceof ProviderRejected && (err.status === 404 || err.status === 400 || err.status === 422)) {
          return undefined;
        }
        throw err;
      }
      // Brale issues USD-backed tokens; Spark token amounts are counted with 6 decimals.
      return { name: valueType, symbol: valueType, decimals: 6, baseCurrency: 'USD', issuanceStatus: 'PROVISIONED' };
    },

    async createTransfer(
      credentials,
      accountId,
      request: ProviderTransferRequest,
      idempotencyKey,
    ): Promise<ProviderTransfer> {
      const known = request.source.gridAccountId || request.destination.gridAccountId
          || (request.awaitsDeposit && request.source.transferType !== 'wire')
        ? await addresses(credentials, accountId)
        : [];
      const body = {
        amount: { value: decimalOfCents(request.amountCents), currency: request.currency },
        source: await endOf(credentials, accountId, request.source, known),
        destination: await endOf(credentials, accountId, request.destination, known),
      };
      const transfer = await call({
        credentials,
        method: 'POST',
        path: `/accounts/${encodeURIComponent(accountId)}/transfers`,
        body,
        idempotencyKey,
      }) as BraleTransfer;
      return viewOf(transfer, request, known);
    },

    async getTransfer(credentials, accountId, transferId) {
      const transfer = await call({
        credentials,
        method: 'GET',
        path: `/accounts/${encodeURIComponent(accountId)}/transfers/${encodeURIComponent(transferId)}`,
      }) as BraleTransfer;
      return { id: transfer.id, status: transfer.status };
    },
  };
}

function viewOf(transfer: BraleTransfer, request: ProviderTransferRequest, known: BraleAddress[]): ProviderTransfer {
  if (!transfer?.id || typeof transfer.status !== 'string') {
    throw new ProviderUnavailable('Brale answered a transfer without id or status');
  }
  const view: ProviderTransfer = { id: transfer.id, status: transfer.status };
  if (!request.awaitsDeposit) return view;
  if (transfer.wire_instructions) {
    return { ...view, fundingInstructions: { rail: 'WIRE', ...stringsOf(transfer.wire_instructions) } };
  }
  const deposit = known.find((a) =>
    a.type === 'internal' && (a.transfer_types ?? []).includes(request.source.transferType)
  );
  if (deposit?.address) {
    return {
      ...view,
      fundingInstructions: {
        rail: 'SPARK',
        network: 'SPARK',
        address: deposit.address,
        valueType: request.source.valueType,
      },
    };
  }
  return view;
}

function stringsOf(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => typeof v === 'string' || typeof v === 'number').map((
      [k, v],
    ) => [camel(k), String(v)]),
  );
}

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 200);
  }
}

/**
 * Brale's errors are JSON:API (https://docs.brale.xyz/reference/errors); the token endpoint answers OAuth's `{error}`.
 */
function describe(body: unknown): string {
  if (typeof body === 'string') return body;
  const b = body as
    | { errors?: Array<{ title?: string; detail?: string }>; error?: string; message?: string }
    | undefined;
  const first = Array.isArray(b?.errors) ? b.errors[0] : undefined;
  if (first) return [first.title, first.detail].filter(Boolean).join(' ') || 'error';
  return b?.error ?? b?.message ?? JSON.stringify(b ?? null).slice(0, 200);
}
