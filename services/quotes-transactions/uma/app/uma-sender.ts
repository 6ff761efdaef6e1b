import {
  getMajorVersion,
  getPayRequest,
  getPostTransactionCallback,
  getSignedLnurlpRequestUrl,
  KycStatus,
  LnurlpResponse,
  PayReqResponse,
  selectHighestSupportedVersion,
  UmaError,
  verifyPayReqResponseSignature,
  verifyUmaLnurlpResponseSignature,
  type NonceValidator,
} from '@uma-sdk/core';
import { AppError } from '../../../../lib/errors';
import type { CounterpartyAnswer } from '../../lookups/adapters/counterparty';
import type { PaymentAccounts } from '../../shared/app/payment-accounts';
import type { Payment } from '../../payments/domain/payment';
import type { UmaIdentity } from '../adapters/uma-identity';
import { checkCounterpartyDomain, type VaspPublicKeys } from '../adapters/vasp-public-keys';
import { missingPayerData, payerDataFor, requiredPayerData } from '../domain/payer-data-fields';
import { vaspDomainOf } from '../domain/uma-receiver';
import { boundsInOurUnits } from '../domain/uma-amounts';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import type { ReceivableBounds } from '../../shared/domain/receivable-bounds';
import type { UmaRecords } from './uma-records';

export interface UmaSenderDeps {
  identity: UmaIdentity;
  keys: VaspPublicKeys;
  nonces: NonceValidator;
  records: UmaRecords;
  /** How long an invoice we pay may take to be paid and reported before the payment is refunded. */
  giveUpAfterMs: number;
  clock: () => Date;
  accounts: Pick<PaymentAccounts, 'customer'>;
  /** HTTP to other VASPs (global fetch unless a test gives its own). */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface Lnurlp {
  response: LnurlpResponse;
  receiverDomain: string;
}

/** The receiver's bounds per currency we know, in our smallest units (one whose bounds leave no amount is left out). */
function counterpartyBounds(response: LnurlpResponse): Record<string, ReceivableBounds> {
  const bounds: Record<string, ReceivableBounds> = {};
  for (const c of response.currencies ?? []) {
    const ours = findCurrency(c.code);
    const theirs = { min: c.minSendable, max: c.maxSendable, decimals: c.decimals };
    const converted = ours && boundsInOurUnits(theirs, ours.decimals);
    if (converted) bounds[c.code] = converted;
  }
  return bounds;
}

/** The address's VASP, refused when it is no address or one we may not reach. */
function domainOf(identity: UmaIdentity, address: string): string {
  const domain = vaspDomainOf(address);
  if (!domain) throw new AppError('INVALID_UMA_ADDRESS', `${address.slice(0, 100)} is not an UMA address`);
  try {
    checkCounterpartyDomain(domain, identity.sandbox);
  } catch (err) {
    throw new AppError('LNURLP_REQUEST_FAILED', (err as Error).message);
  }
  return domain;
}

/** A URL the counterparty names is followed only on its own domain (and scheme: http for localhost alone). */
function onVasp(url: string, domain: string): boolean {
  try {
    const u = new URL(url);
    return u.host === domain
      && (u.protocol === 'https:' || (u.protocol === 'http:' && /^(localhost|127\.0\.0\.1)(:\d+)?$/.test(domain)));
  } catch {
    return false;
  }
}

const callbackOf = (paid: PayReqResponse, domain: string): string | undefined => {
  const url = paid.payeeData?.compliance?.utxoCallback;
  return url && onVasp(url, domain) ? url : undefined;
};

/** The highest version both sides support, from a 412 answer's supportedMajorVersions (undefined: none). */
function negotiatedVersion(text: string): string | undefined {
  try {
    const supported = (JSON.parse(text || '{}') as { supportedMajorVersions?: unknown }).supportedMajorVersions;
    if (!Array.isArray(supported)) return undefined;
    return selectHighestSupportedVersion(supported.filter((v): v is number => Number.isInteger(v))) ?? undefined;
  } catch {
    return undefined;
  }
}

/** An UmaError of the SDK (a bad key document, a replayed nonce) becomes the counterparty's failure. */
async function counterpartyStep<T>(
  code: 'LNURLP_REQUEST_FAILED' | 'PAYREQ_REQUEST_FAILED' | 'COUNTERPARTY_PUBKEY_FETCH_ERROR',
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof UmaError && err.code === 'COUNTERPARTY_PUBKEY_FETCH_ERROR') {
      throw new AppError('COUNTERPARTY_PUBKEY_FETCH_ERROR', err.message);
    }
    throw new AppError(code, `the receiving VASP's answer is not usable: ${(err as Error).message.slice(0, 300)}`);
  }
}

/**
 * Our sending side (we are the sender's VASP): a signed lnurlp request to the receiver's VASP and
 * its verified answer (the lookup), a signed pay request carrying the sender's compliance data
 * encrypted to the receiver (the quote), and the post-transaction callback once paid.
 */
export function createUmaSender(deps: UmaSenderDeps) {
  const http = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? 10_000;

  async function call(url: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
    const res = await http(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, text: (await res.text()).slice(0, 256 * 1024) };
  }

  async function lnurlpOnce(receiverAddress: string, version?: string): Promise<{ status: number; text: string }> {
    const url = await getSignedLnurlpRequestUrl({
      isSubjectToTravelRule: true,
      receiverAddress,
      senderVaspDomain: deps.identity.domain,
      signingPrivateKey: deps.identity.signingKey,
      ...(version ? { umaVersionOverride: version } : {}),
    });
    // The SDK reaches localhost over http and anything else over https, as we allow.
    return call(url.toString()).catch((err: Error) => {
      throw new AppError('LNURLP_REQUEST_FAILED', `the receiving VASP did not answer: ${err.message}`);
    });
  }

  /** The signed lnurlp exchange, negotiating the version once when the receiver answers 412. */
  async function lnurlp(receiverAddress: string): Promise<Lnurlp> {
    const receiverDomain = domainOf(deps.identity, receiverAddress);
    let answer = await lnurlpOnce(receiverAddress);
    if (answer.status === 412) {
      const version = negotiatedVersion(answer.text);
      if (!version) throw new AppError('UNSUPPORTED_UMA_VERSION', `${receiverDomain} supports no UMA version we do`);
      answer = await lnurlpOnce(receiverAddress, version);
      if (answer.status === 412) {
        throw new AppError('UNSUPPORTED_UMA_VERSION', `${receiverDomain} refused UMA ${version} too`);
      }
    }
    if (answer.status === 404) {
      throw new AppError('UMA_NOT_FOUND', `${receiverAddress} is not known at ${receiverDomain}`);
    }
    if (answer.status !== 200) {
      throw new AppError('LNURLP_REQUEST_FAILED', `${receiverDomain} answered ${answer.status}`);
    }
    return counterpartyStep('LNURLP_REQUEST_FAILED', async () => {
      const response = LnurlpResponse.fromJson(answer.text);
      if (!response.isUma()) {
        throw new AppError('MISSING_REQUIRED_UMA_PARAMETERS', `${receiverDomain} answered without UMA compliance data`);
      }
      const keys = await deps.keys.keysOf(receiverDomain);
      if (!(await verifyUmaLnurlpResponseSignature(response, keys, deps.nonces))) {
        deps.keys.forget(receiverDomain);
        throw new AppError(
          'LNURLP_REQUEST_FAILED',
          `the answer of ${receiverDomain} is not signed by its published key`,
        );
      }
      return { response, receiverDomain };
    });
  }

  /** The lookup: what the receiver accepts and asks for, from its own signed answer. */
  async function lookupUma(receiverUmaAddress: string): Promise<CounterpartyAnswer> {
    const { response } = await lnurlp(receiverUmaAddress);
    const currencies = (response.currencies ?? []).map((c) => c.code);
    if (!currencies.length) throw new AppError('LNURLP_REQUEST_FAILED', 'the receiving VASP offers no currency');
    return {
      currencies,
      requiredPayerData: requiredPayerData(response.payerData),
      bounds: counterpartyBounds(response),
    };
  }

  async function payerIdentifier(p: Payment): Promise<string> {
    const customer = p.customerId.startsWith('Customer:')
      ? await deps.accounts.customer({ platformId: p.platformId }, p.customerId)
      : null;
    const local = customer?.umaAddress
      ? customer.umaAddress.slice(1, customer.umaAddress.lastIndexOf('@'))
      : 'platform';
    return `$${local}@${deps.identity.domain}`;
  }

  /**
   * The quote to an address at another VASP: the signed pay request for the amount it receives, the
   * verified answer and its invoice kept with the transaction; the invoice fixes what we pay.
   */
  async function quoteUma(p: Payment): Promise<void> {
    if (p.type !== 'OUTGOING' || p.destination.destinationType !== 'UMA_ADDRESS') return;
    const receiverAddress = p.destination.umaAddress;
    const { response, receiverDomain } = await lnurlp(receiverAddress);
    const missing = missingPayerData(response.payerData, p.counterpartyInformation);
    if (missing.length) {
      throw new AppError(
        'MISSING_REQUIRED_UMA_PARAMETERS',
        `the receiving VASP asks for ${missing.join(', ')} (senderCustomerInfo)`,
        { missingFields: missing },
      );
    }
    const payer = await payerIdentifier(p);
    const keys = await counterpartyStep('COUNTERPARTY_PUBKEY_FETCH_ERROR', () => deps.keys.keysOf(receiverDomain));
    const payerData = payerDataFor(response.payerData, p.counterpartyInformation);
    const request = await getPayRequest({
      receiverEncryptionPubKey: keys.getEncryptionPubKey(),
      sendingVaspPrivateKey: deps.identity.signingKey,
      receivingCurrencyCode: p.received.currency.code,
      amount: p.received.amount,
      isAmountInReceivingCurrency: true,
      payerIdentifier: payer,
      payerKycStatus: KycStatus.Verified,
      umaMajorVersion: getMajorVersion(response.umaVersion ?? '1.0'),
      trInfo: JSON.stringify({ ...payerData, ...p.counterpartyInformation }),
      payerData,
    });
    if (!onVasp(response.callback, receiverDomain)) {
      throw new AppError('LNURLP_REQUEST_FAILED', `the pay-request callback is not on ${receiverDomain}`);
    }
    const answer = await call(response.callback, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: request.toJsonString(),
    })
      .catch((err: Error) => {
        throw new AppError('PAYREQ_REQUEST_FAILED', `the receiving VASP did not answer: ${err.message}`);
      });
    if (answer.status !== 200) {
      const refusal = (() => {
        try {
          return JSON.parse(answer.text) as { code?: string; reason?: string };
        } catch {
          return {};
        }
      })();
      const code = refusal.code === 'SENDER_NOT_ACCEPTED' ? 'SENDER_NOT_ACCEPTED' : 'PAYREQ_REQUEST_FAILED';
      throw new AppError(
        code,
        `${receiverDomain} refused the payment (${answer.status} ${refusal.code ?? ''}: ${
          (refusal.reason ?? '').slice(0, 200)
        })`,
      );
    }
    const paid = await counterpartyStep('PAYREQ_REQUEST_FAILED', async () => {
      const parsed = PayReqResponse.fromJson(answer.text);
      if (!(await verifyPayReqResponseSignature(parsed, payer, receiverAddress, keys, deps.nonces))) {
        throw new AppError(
          'PAYREQ_REQUEST_FAILED',
          `the invoice of ${receiverDomain} is not signed by its published key`,
        );
      }
      if (
        parsed.converted?.amount !== p.received.amount || parsed.converted.currencyCode !== p.received.currency.code
      ) {
        throw new AppError(
          'PAYREQ_REQUEST_FAILED',
          `${receiverDomain} would credit ${parsed.converted?.amount} `
            + `${parsed.converted?.currencyCode}, not the quoted amount`,
        );
      }
      return parsed;
    });
    const converted = paid.converted!;
    const postTransactionCallback = callbackOf(paid, receiverDomain);
    await deps.records.saveOutgoing({
      transactionId: p.id,
      platformId: p.platformId,
      invoice: paid.pr,
      receiverDomain,
      payerIdentifier: payer,
      amountMsats: Math.round((converted.amount ?? 0) * converted.multiplier + converted.fee),
      ...(postTransactionCallback ? { postTransactionCallback } : {}),
      giveUpAt: new Date(deps.clock().getTime() + deps.giveUpAfterMs).toISOString(),
    });
  }

  /**
   * The signed post-transaction callback (UTXOs: the paid invoice's hash); answers whether the receiver accepted it.
   */
  async function reportPaid(callbackUrl: string, paymentHash: string, amountMsats: number): Promise<boolean> {
    const callback = await getPostTransactionCallback({
      utxos: [{ utxo: `${paymentHash}:0`, amountMsats }],
      vaspDomain: deps.identity.domain,
      signingPrivateKey: deps.identity.signingKey,
    });
    const answer = await call(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(callback),
    }).catch(() => undefined);
    return answer?.status === 200;
  }

  return {
    lookupUma,
    quoteUma,
    reportPaid,
    isOurs: (address: string) => vaspDomainOf(address) === deps.identity.domain,
  };
}

export type UmaSender = ReturnType<typeof createUmaSender>;
