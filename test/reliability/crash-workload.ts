import { basicAuthHeader } from '../system-harness';
import { DEFAULT_SANDBOX } from '../../gateway/sandbox-bootstrap';
import { externalAccountBody, INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import {
  agentPayment,
  cardDebit,
  cardJourney,
  scaPayment,
  stablecoinOperation,
  type MoneyPaths,
  type Stablecoin,
} from './money-paths';

const AUTH = basicAuthHeader(DEFAULT_SANDBOX.tokenId, DEFAULT_SANDBOX.clientSecret);
export const FUNDING = 50_000_000;

export interface ApiAnswer {
  status: number;
  body: any;
}
export type Api = (
  path: string,
  body?: unknown,
  method?: string,
  headers?: Record<string, string>,
) => Promise<ApiAnswer>;

/** A client of `{rootUrl}/2025-10-13` for whichever process is up now. */
export function apiOf(rootUrl: () => string): Api {
  return async (path, body, method = body === undefined ? 'GET' : 'POST', headers = {}) => {
    const res = await fetch(`${rootUrl()}/2025-10-13${path}`, {
      method,
      headers: {
        authorization: AUTH,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

export interface Payer {
  customerId: string;
  usdAccount: string;
  mxnPayee: string;
  usdBank: string;
  /** Its card on the USD account and its agent's Bearer header, when equipped (money-paths.ts). */
  cardId?: string;
  agentBearer?: string;
}

/** A payer who accepted the terms, its funded USD account, and two destinations. */
export async function preparePayer(api: Api, index: number): Promise<Payer> {
  const terms = await api('/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const customer = await api('/customers', {
    ...INDIVIDUAL_CUSTOMER,
    platformCustomerId: `crash-payer-${index}`,
    endUserTermsConsent: consent,
  });
  if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
  const customerId = customer.body.id as string;
  const accounts = await api(`/customers/internal-accounts?customerId=${customerId}&type=INTERNAL_FIAT&currency=USD`);
  const usdAccount = accounts.body.data[0].id as string;
  const funded = await api(`/sandbox/internal-accounts/${usdAccount}/fund`, { amount: FUNDING });
  if (funded.status !== 200) throw new Error(`fund: ${funded.status}`);
  const external = async (variant: 'MXN_ACCOUNT' | 'USD_ACCOUNT') => {
    const res = await api('/customers/external-accounts', { ...externalAccountBody(variant), customerId });
    if (res.status !== 201) throw new Error(`external account: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  return { customerId, usdAccount, mxnPayee: await external('MXN_ACCOUNT'), usdBank: await external('USD_ACCOUNT') };
}

/** What the system acknowledged while it was being killed: every payment it answered 2xx for. */
export interface Acknowledged {
  transactions: Set<string>;
  attempts: number;
  failures: number;
}

const pick = (n: number) => Math.floor(Math.random() * n);

/**
 * One payment of a random kind: a cross-currency quote executed (one in ten with the sandbox's
 * `901` failure, refunded), a transfer out, or a transfer in. Answers the transaction id when the
 * system acknowledged it.
 */
export async function randomPayment(api: Api, payer: Payer, paths?: MoneyPaths): Promise<string | undefined> {
  const kind = pick(20);
  const counts = paths?.counts[kind < 12 ? 'payments' : 'transfers'];
  if (counts) counts.sent++;
  const id = await paymentOf(api, payer, kind);
  if (id && counts) counts.acknowledged++;
  return id;
}

async function paymentOf(api: Api, payer: Payer, kind: number): Promise<string | undefined> {
  if (kind < 12) {
    const amount = pick(10) === 0 ? 1000 * (1 + pick(9)) + 901 : 1000 + pick(20_000);
    const quote = await api('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.usdAccount },
      destination: { destinationType: 'ACCOUNT', accountId: payer.mxnPayee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    });
    if (quote.status !== 201) return undefined;
    const executed = await api(`/quotes/${quote.body.id}/execute`, {});
    return executed.status === 200 ? executed.body.transactionId : undefined;
  }
  const amount = 100 + pick(3000);
  const out = kind < 17;
  const body = out
    ? { source: { accountId: payer.usdAccount }, destination: { accountId: payer.usdBank }, amount }
    : { source: { accountId: payer.usdBank }, destination: { accountId: payer.usdAccount }, amount };
  const res = await api(out ? '/transfer-out' : '/transfer-in', body);
  return res.status === 201 ? res.body.id : undefined;
}

/** The API the workers call, the payers they pay from, how many workers, and where acknowledgements go. */
export interface Workload {
  api: Api;
  payers: Payer[];
  workers: number;
  acknowledged: Acknowledged;
  pauseMs?: number;
  paths?: { money: MoneyPaths; coin: Stablecoin; isUp: () => boolean; scaPayer: Payer };
}

/**
 * Workers paying until `stop()`; a request cut by a kill simply counts as unacknowledged. With
 * `paths` (payers equipped with a card and an agent, and a stablecoin) the workers take every
 * money path at once: payments, agent payments, card journeys and stablecoin mints and burns.
 * `pauseMs`: each worker waits this long after each payment (a paced load instead of as fast as possible).
 */
export function startWorkload({ api, payers, workers, acknowledged, pauseMs = 0, paths }: Workload) {
  let running = true;
  const observed: Api = async (path, ...rest) => {
    const res = await api(path, ...rest);
    if (paths && res.status >= 300) {
      const what = `${path.split('?')[0].replace(/[A-Za-z]+:[0-9a-f-]{36}/g, '{id}')} ${res.status} ${
        res.body?.code ?? ''
      }`;
      paths.money.refusals[what] = (paths.money.refusals[what] ?? 0) + 1;
    }
    return res;
  };
  const one = async (payer: Payer): Promise<string | undefined> => {
    const api = observed;
    const path = paths ? pick(20) : 0;
    if (path < 7) return randomPayment(api, payer, paths?.money);
    if (path < 8) return scaPayment(api, paths!.scaPayer, paths!.money);
    if (path < 11) return agentPayment(api, payer, paths!.money);
    if (path < 17) return void await cardJourney(api, payer, paths!.money);
    return void await stablecoinOperation(api, paths!.coin, paths!.money);
  };
  const loops = Array.from({ length: workers }, async (_, i) => {
    while (running) {
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      // Nothing is sent while the system is known down (between a kill and the restart): what a kill cuts is what was
      // in flight.
      if (paths && !paths.isUp()) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      acknowledged.attempts++;
      try {
        const id = await one(payers[i % payers.length]);
        if (id) acknowledged.transactions.add(id);
      } catch (err) {
        acknowledged.failures++;
        if (paths) {
          const what = `no answer: ${
            String((err as Error).cause ?? (err as Error).message).replace(/:\d+$/, '').slice(0, 80)
          }`;
          paths.money.refusals[what] = (paths.money.refusals[what] ?? 0) + 1;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Every transaction of the platform, oldest first. */
export async function allTransactions(api: Api): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await api(`/transactions?limit=100&sortOrder=asc${cursor ? `&cursor=${cursor}` : ''}`);
    if (page.status !== 200) throw new Error(`list: ${page.status} ${JSON.stringify(page.body)}`);
    all.push(...page.body.data);
    cursor = page.body.hasMore ? page.body.nextCursor : undefined;
  } while (cursor);
  return all;
}

/** Every webhook delivery in the platform's log. */
export async function allDeliveries(api: Api): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await api(`/webhooks/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    if (page.status !== 200) throw new Error(`deliveries: ${page.status} ${JSON.stringify(page.body)}`);
    all.push(...page.body.data);
    cursor = page.body.hasMore ? page.body.nextCursor : undefined;
  } while (cursor);
  return all;
}

/** A transaction no worker will move any more: settled, failed with its refund done, or an unexecuted quote expired. */
export function isSettled(t: any): boolean {
  // A card transaction moves only on the issuer's events (or the stale-hold expiry): wherever it is, it is at rest.
  if (t.type === 'CARD') return true;
  if (t.status === 'COMPLETED' || t.status === 'EXPIRED' || t.status === 'REJECTED' || t.status === 'REFUNDED') {
    return true;
  }
  // A payment never authorized (SCA) fails before anything moved: there is nothing to refund.
  return t.status === 'FAILED'
    && (t.type === 'INCOMING' || t.refund?.status === 'COMPLETED' || t.failureReason === 'SCA_NOT_COMPLETED');
}

/**
 * What a payer's USD account must hold after the settled transactions: funding, minus what left it (card transactions
 * too), plus what came in.
 */
export function expectedBalance(payer: Payer, transactions: any[]): number {
  let balance = FUNDING;
  for (const t of transactions) {
    if (t.type === 'OUTGOING' && t.source?.accountId === payer.usdAccount && t.status === 'COMPLETED') {
      balance -= t.sentAmount.amount;
    }
    if (t.type === 'INCOMING' && t.destination?.accountId === payer.usdAccount && t.status === 'COMPLETED') {
      balance += t.receivedAmount.amount;
    }
    if (t.type === 'CARD' && t.accountId === payer.usdAccount) balance -= cardDebit(t);
  }
  return balance;
}
