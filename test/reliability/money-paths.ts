import { externalAccountBody, INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import type { Api, Payer } from './crash-workload';

/**
 * The money paths beside payments that the crash test drives at once: card authorizations,
 * clearings and returns on each payer's card; payments by each payer's agent; SCA-authorized
 * payments; stablecoin mints
 * (debiting the platform's USD account) and burns, each under an Idempotency-Key sent again after
 * a kill until the system answers it.
 */
export interface PathCounts {
  sent: number;
  acknowledged: number;
}

export interface MoneyPaths {
  counts: Record<
    | 'payments'
    | 'transfers'
    | 'scaPayments'
    | 'agentPayments'
    | 'cardAuthorizations'
    | 'clearings'
    | 'returns'
    | 'mints'
    | 'burns',
    PathCounts
  >;
  /** Clearings and returns per card transaction: what was acknowledged, and what was sent at all. */
  cardEvents: Map<string, { clearedAcked: number; clearedSent: number; returnedAcked: number; returnedSent: number }>;
  /** Each Idempotency-Key of a mint or burn and the operation ids its answers named. */
  operationKeys: Map<string, Set<string>>;
  /** Keys whose first request got no answer (a kill), and the requests sent again under them until answered. */
  keysReplayed: number;
  replays: number;
  /**
   * Answers other than 2xx, by route and status (the kills' 503s and refusals such as a cleared authorization's 400).
   */
  refusals: Record<string, number>;
}

export function newMoneyPaths(): MoneyPaths {
  const zero = () => ({ sent: 0, acknowledged: 0 });
  return {
    counts: {
      payments: zero(),
      transfers: zero(),
      scaPayments: zero(),
      agentPayments: zero(),
      cardAuthorizations: zero(),
      clearings: zero(),
      returns: zero(),
      mints: zero(),
      burns: zero(),
    },
    cardEvents: new Map(),
    operationKeys: new Map(),
    keysReplayed: 0,
    replays: 0,
    refusals: {},
  };
}

const pick = (n: number) => Math.floor(Math.random() * n);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await pause(100);
  }
}

/** The payer approved through the hosted KYC page, with a card on its USD account and a connected agent. */
export async function equipPayer(api: Api, rootUrl: () => string, payer: Payer): Promise<void> {
  const link = await api(`/customers/${payer.customerId}/kyc-link`, { redirectUri: 'https://app.example.com/done' });
  if (link.status !== 201) throw new Error(`kyc link: ${link.status} ${JSON.stringify(link.body)}`);
  await fetch(`${rootUrl()}${new URL(link.body.kycUrl).pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome: 'APPROVE' }).toString(),
  });
  await until(
    `customer ${payer.customerId} KYC`,
    () => api(`/customers/${payer.customerId}`),
    (r) => r.body.kycStatus === 'APPROVED',
  );
  const card = await api('/cards', {
    cardholderId: payer.customerId,
    form: 'VIRTUAL',
    fundingSources: [payer.usdAccount],
  });
  if (card.status !== 201) throw new Error(`card: ${card.status} ${JSON.stringify(card.body)}`);
  await until(`card ${card.body.id}`, () => api(`/cards/${card.body.id}`), (r) => r.body.state === 'ACTIVE');
  payer.cardId = card.body.id;
  const limits = {
    currency: 'USD',
    perTransactionLimit: 1_000_000,
    dailyLimit: 40_000_000,
    dailyTransactionLimit: 100_000,
    monthlyLimit: 40_000_000,
  };
  const agent = await api('/agents', {
    name: `Crash agent ${payer.customerId.slice(-4)}`,
    customerId: payer.customerId,
    policy: {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: limits,
    },
  });
  if (agent.status !== 201) throw new Error(`agent: ${agent.status} ${JSON.stringify(agent.body)}`);
  const redeemed = await fetch(`${rootUrl()}/2025-10-13/agents/device-codes/${agent.body.deviceCode.code}/redeem`, {
    method: 'POST',
  });
  if (redeemed.status !== 200) throw new Error(`agent redeem: ${redeemed.status}`);
  payer.agentBearer = `Bearer ${((await redeemed.json()) as { accessToken: string }).accessToken}`;
}

/**
 * A payer in a region where sending needs strong customer authentication (SMS code), its phone verified, funded, with
 * an MXN payee.
 */
export async function prepareScaPayer(api: Api, funding: number): Promise<Payer> {
  const terms = await api('/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const created = await api('/customers', {
    ...INDIVIDUAL_CUSTOMER,
    region: 'FR',
    nationality: 'FR',
    phoneNumber: '+33612345678',
    email: 'crash-sca@example.com',
    platformCustomerId: 'crash-sca-payer',
    endUserTermsConsent: consent,
  });
  if (created.status !== 201) throw new Error(`customer: ${created.status} ${JSON.stringify(created.body)}`);
  const customerId = created.body.id as string;
  if ((await api(`/customers/${customerId}/verify-phone`, {})).status !== 204) throw new Error('verify-phone');
  if ((await api(`/customers/${customerId}/verify-phone/confirm`, { code: '123456' })).status !== 200) {
    throw new Error('verify-phone confirm');
  }
  const usdAccount =
    (await api(`/customers/internal-accounts?customerId=${customerId}&type=INTERNAL_FIAT&currency=USD`)).body.data[0]
      .id as string;
  if ((await api(`/sandbox/internal-accounts/${usdAccount}/fund`, { amount: funding })).status !== 200) {
    throw new Error('fund');
  }
  const external = async (variant: 'MXN_ACCOUNT' | 'USD_ACCOUNT') =>
    (await api('/customers/external-accounts', { ...externalAccountBody(variant), customerId })).body.id as string;
  return { customerId, usdAccount, mxnPayee: await external('MXN_ACCOUNT'), usdBank: await external('USD_ACCOUNT') };
}

/**
 * A cross-currency payment authorized by SMS code: executed (PENDING_AUTHORIZATION), then
 * authorized step by step (a session opened by an SMS login when asked) until it is PROCESSING.
 */
export async function scaPayment(api: Api, payer: Payer, paths: MoneyPaths): Promise<string | undefined> {
  paths.counts.scaPayments.sent++;
  const quote = await api('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: payer.usdAccount },
    destination: { destinationType: 'ACCOUNT', accountId: payer.mxnPayee },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_000 + pick(20_000),
  });
  if (quote.status !== 201) return undefined;
  const executed = await api(`/quotes/${quote.body.id}/execute`, {});
  if (executed.status !== 200) return undefined;
  for (let step = 0; step < 4; step++) {
    const res = await api(`/quotes/${quote.body.id}/authorize`, { code: '123456' });
    if (res.status === 409 && res.body?.code === 'SCA_SESSION_REQUIRED') {
      const sca = (path: string, body: unknown) =>
        api(`${path}?customerId=${encodeURIComponent(payer.customerId)}`, body);
      const start = await sca('/sca/login/start', { factor: 'SMS_OTP' });
      await sca('/sca/login/complete', {
        factor: 'SMS_OTP',
        endUserIpAddress: '203.0.113.4',
        challengeId: start.body.challengeId,
        code: '123456',
      });
      continue;
    }
    if (res.status !== 200) return undefined;
    if (res.body.status === 'PROCESSING') {
      paths.counts.scaPayments.acknowledged++;
      return quote.body.transactionId;
    }
  }
  return undefined;
}

/** The platform's stablecoin on the sandbox provider, its Spark wallet and bank, and its funded USD account. */
export interface Stablecoin {
  id: string;
  wallet: string;
  bank: string;
  usd: string;
}

export async function prepareStablecoin(api: Api, funding: number): Promise<Stablecoin> {
  const key = () => ({ 'idempotency-key': `crash-setup-${Math.random()}` });
  const linked = await api(
    '/stablecoin-provider-accounts',
    { provider: 'BRALE', apiClientId: 'crash-client', apiClientSecret: 'crash-secret' },
    'POST',
    key(),
  );
  if (linked.status !== 201) throw new Error(`provider account: ${linked.status} ${JSON.stringify(linked.body)}`);
  const coin = await api(
    '/stablecoins',
    {
      providerTokenIdentifier: 'ACME',
      networkTokenIdentifier: 'btkn1acme',
      network: 'SPARK',
      stablecoinProviderAccountId: linked.body.id,
    },
    'POST',
    key(),
  );
  if (coin.status !== 201) throw new Error(`stablecoin: ${coin.status} ${JSON.stringify(coin.body)}`);
  const external = async (variant: 'SPARK_WALLET' | 'USD_ACCOUNT') =>
    (await api('/platform/external-accounts', externalAccountBody(variant))).body.id as string;
  const usd = (await api('/platform/internal-accounts?currency=USD')).body.data.find((a: any) =>
    a.balance.currency.code === 'USD'
  ).id as string;
  if ((await api(`/sandbox/internal-accounts/${usd}/fund`, { amount: funding })).status !== 200) {
    throw new Error('platform funding');
  }
  return { id: coin.body.id, wallet: await external('SPARK_WALLET'), bank: await external('USD_ACCOUNT'), usd };
}

/** The card transaction an authorization's token names, once listed. */
async function cardTransactionOf(api: Api, payer: Payer, token: string): Promise<any | undefined> {
  const page = await api(`/transactions?customerId=${payer.customerId}&limit=30&sortOrder=desc`);
  return page.status === 200
    ? page.body.data.find((t: any) => t.type === 'CARD' && t.issuerTransactionToken === token)
    : undefined;
}

/** One card journey: an authorization, then often a clearing (whole, partial or zero) and sometimes a return. */
export async function cardJourney(api: Api, payer: Payer, paths: MoneyPaths): Promise<void> {
  const simulate = (what: string, body: unknown) => api(`/sandbox/cards/${payer.cardId}/simulate/${what}`, body);
  const amount = 100 + pick(2_000);
  paths.counts.cardAuthorizations.sent++;
  const auth = await simulate('authorization', {
    amount,
    currency: { code: 'USD' },
    merchant: { descriptor: 'CRASH COFFEE SF 100', mcc: '5814', country: 'US' },
  });
  if (auth.status !== 202) return;
  paths.counts.cardAuthorizations.acknowledged++;
  if (pick(4) === 0) return; // left open: cleared by the stale-hold expiry
  const tx = await cardTransactionOf(api, payer, auth.body.issuerTransactionToken);
  if (!tx) return; // declined (recovery took it for interrupted), or the list did not answer
  const events = paths.cardEvents.get(tx.id) ?? { clearedAcked: 0, clearedSent: 0, returnedAcked: 0, returnedSent: 0 };
  paths.cardEvents.set(tx.id, events);
  const cleared = [amount, Math.ceil(amount / 2), 0][pick(3)];
  paths.counts.clearings.sent++;
  events.clearedSent += cleared;
  const clearing = await simulate('clearing', { cardTransactionId: tx.id, amount: cleared });
  if (clearing.status !== 202) return;
  paths.counts.clearings.acknowledged++;
  events.clearedAcked += cleared;
  if (cleared === 0 || pick(2) === 0) return;
  // A third of returns give back everything cleared, which on a partial clearing leaves part of the hold open.
  const returned = pick(3) === 0 ? cleared : 1 + pick(cleared);
  paths.counts.returns.sent++;
  events.returnedSent += returned;
  const refund = await simulate('return', { cardTransactionId: tx.id, amount: returned });
  if (refund.status !== 202) return;
  paths.counts.returns.acknowledged++;
  events.returnedAcked += returned;
}

/** A transfer out by the payer's agent (its own Bearer token). */
export async function agentPayment(api: Api, payer: Payer, paths: MoneyPaths): Promise<string | undefined> {
  paths.counts.agentPayments.sent++;
  const res = await api(
    '/agents/me/transfer-out',
    { source: { accountId: payer.usdAccount }, destination: { accountId: payer.usdBank }, amount: 100 + pick(3_000) },
    'POST',
    { authorization: payer.agentBearer! },
  );
  if (res.status !== 201 || !res.body.transaction?.id) return undefined;
  paths.counts.agentPayments.acknowledged++;
  return res.body.transaction.id;
}

interface KeyedRequest {
  key: string;
  path: string;
  body: unknown;
  counts: PathCounts;
  ids: Set<string>;
}

/** Sends a keyed request once; true when it was answered for good (201, or a refusal that is not a retry-later). */
async function sendKeyed(api: Api, request: KeyedRequest): Promise<boolean> {
  const res = await api(request.path, request.body, 'POST', { 'idempotency-key': request.key }).catch(() => undefined);
  if (res && res.status === 201) {
    request.ids.add(res.body.id);
    request.counts.acknowledged++;
    return true;
  }
  if (res && res.status < 500 && res.status !== 409 && res.status !== 429) {
    throw new Error(`${request.path}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return false;
}

/**
 * A mint from the platform's USD account or a burn to its bank, under an Idempotency-Key. One a
 * kill left unanswered is kept, to be sent again under the same key (`replayUnanswered`).
 */
export async function stablecoinOperation(
  api: Api,
  coin: Stablecoin,
  paths: MoneyPaths & { unanswered?: KeyedRequest[] },
): Promise<void> {
  const mint = pick(3) !== 0;
  const key = `crash-${mint ? 'mint' : 'burn'}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const drawn = 100 + pick(900);
  // Never a sandbox trigger (cents ending .02 to .05: late failure, never funded, refused, revoked).
  const cents = drawn % 100 >= 2 && drawn % 100 <= 5 ? drawn + 10 : drawn;
  const amount = String(cents * 10_000);
  const request: KeyedRequest = mint
    ? {
      key,
      path: `/stablecoins/${coin.id}/mints`,
      body: {
        amount,
        fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: coin.usd },
        destination: { accountId: coin.wallet },
      },
      counts: paths.counts.mints,
      ids: new Set(),
    }
    : {
      key,
      path: `/stablecoins/${coin.id}/burns`,
      body: {
        amount,
        source: { type: 'PROVIDER_INTERNAL_BALANCE' },
        destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: coin.bank, rail: 'ACH_CREDIT' },
      },
      counts: paths.counts.burns,
      ids: new Set(),
    };
  request.counts.sent++;
  paths.operationKeys.set(key, request.ids);
  if (!(await sendKeyed(api, request))) (paths.unanswered ??= []).push(request);
}

/**
 * Every key a kill left unanswered, sent again until answered: the gateway holds a cut request's
 * key for its lease (a minute) and then lets the repeat run, which must find the operation the
 * first one created rather than create another.
 */
export async function replayUnanswered(
  api: Api,
  paths: MoneyPaths & { unanswered?: KeyedRequest[] },
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  paths.keysReplayed = paths.unanswered?.length ?? 0;
  await Promise.all((paths.unanswered ?? []).map(async (request) => {
    for (;;) {
      paths.replays++;
      if (await sendKeyed(api, request)) return;
      if (Date.now() > deadline) throw new Error(`${request.path} under ${request.key}: never answered`);
      await pause(500);
    }
  }));
}

/** What a card transaction took from its funding account: its open hold, or what settled, less what was returned. */
export function cardDebit(t: any): number {
  const authorized = t.authorizedAmount.amount as number;
  const settled = (t.settledAmount?.amount ?? 0) as number;
  const refunded = (t.refundedAmount?.amount ?? 0) as number;
  const open = t.status === 'AUTHORIZED' || t.status === 'PARTIALLY_SETTLED';
  return (open ? authorized : settled) - refunded;
}
