import {
  Currency,
  ErrorCode,
  getLnurlpResponse,
  isLnurlpRequestForUma,
  KycStatus,
  parseLnurlpRequest,
  UmaError,
  verifyUmaLnurlpQuerySignature,
  type LnurlpRequest,
  type NonceValidator,
} from '@uma-sdk/core';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import type { RateSource } from '../../rates/adapters/rate-source';
import type { UmaAddressDirectory } from '../../payments/app/same-server-payments';
import type { VaspPublicKeys } from '../adapters/vasp-public-keys';
import type { UmaIdentity } from '../adapters/uma-identity';
import {
  payRequestPath,
  receivableAccounts,
  pathSegment,
  requestUrl,
  umaAddressOf,
  type ReceivableAccount,
} from '../domain/uma-receiver';
import { msatsPerUnit } from '../domain/uma-amounts';
import { payerDataOptionsFor } from '../domain/payer-data-fields';
import type { PlatformPayerData } from '../adapters/platform-payer-data';

export interface UmaReceiverDeps {
  identity: UmaIdentity;
  directory: UmaAddressDirectory;
  keys: VaspPublicKeys;
  nonces: NonceValidator;
  rates: RateSource;
  /** The receiving platform's own payer-data requirements (none when absent). */
  platformPayerData?: PlatformPayerData;
}

/** Sends per payment, in satoshis, that our lnurlp response offers (1 sat to 0.1 BTC). */
export const SENDABLE_SATS = { min: 1, max: 10_000_000 };

/**
 * The sending VASP's request, parsed and checked: its signature against its published keys, its nonce and timestamp.
 */
async function verifiedRequest(deps: UmaReceiverDeps, url: URL): Promise<LnurlpRequest> {
  // Throws UnsupportedVersionError (412 with our supported major versions: the negotiation answer).
  const request = parseLnurlpRequest(url);
  if (!isLnurlpRequestForUma(request)) {
    throw new UmaError(
      'only UMA lnurlp requests are served (signature, vaspDomain, nonce, timestamp, umaVersion)',
      ErrorCode.NON_UMA_LNURL_NOT_SUPPORTED,
    );
  }
  const keys = await deps.keys.keysOf(request.vaspDomain!);
  if (!(await verifyUmaLnurlpQuerySignature(request, keys, deps.nonces))) {
    deps.keys.forget(request.vaspDomain!);
    throw new UmaError(
      `the request's signature does not verify against ${request.vaspDomain}'s published key`,
      ErrorCode.INVALID_SIGNATURE,
    );
  }
  return request;
}

/** The currencies the receiver can be paid in, with their estimated rates to millisatoshis. */
async function currencyOptions(deps: UmaReceiverDeps, accounts: ReceivableAccount[]): Promise<Currency[]> {
  return Promise.all(accounts.map(async (a) => {
    const currency = findCurrency(a.currency)!;
    const multiplier = msatsPerUnit(await deps.rates.rate(a.currency, 'BTC'), currency.decimals);
    const max = Math.max(1, Math.floor((SENDABLE_SATS.max * 1000) / multiplier));
    return new Currency(currency.code, currency.name, currency.symbol, multiplier, 1, max, currency.decimals);
  }));
}

/**
 * GET /.well-known/lnurlp/{username}: who can be paid here, in what and within which bounds,
 * answered (signed) only to a sending VASP whose signed request verifies. An address that is
 * unknown, deleted or without an account to receive in answers the same USER_NOT_FOUND.
 */
export function createAnswerLnurlp(deps: UmaReceiverDeps) {
  return async function answerLnurlp(pathAndQuery: string): Promise<string> {
    const url = requestUrl(deps.identity, pathAndQuery);
    const request = await verifiedRequest(deps, url);
    const username = pathSegment(url, 3);
    if (!username) throw new UmaError('the path names no user', ErrorCode.USER_NOT_FOUND);
    const address = umaAddressOf(username, deps.identity.domain);
    const accounts = receivableAccounts(await deps.directory.holders(address));
    if (!accounts.length) throw new UmaError(`no UMA user ${address}`, ErrorCode.USER_NOT_FOUND);
    const currencies = accounts.map((a) => a.currency);
    const platformFields = (await deps.platformPayerData?.(accounts[0].platformId, currencies)) ?? [];
    const response = await getLnurlpResponse({
      request,
      privateKeyBytes: deps.identity.signingKey,
      requiresTravelRuleInfo: true,
      callback: `${deps.identity.scheme}://${deps.identity.domain}${payRequestPath(username)}`,
      encodedMetadata: JSON.stringify([['text/plain', `Pay ${address}`], ['text/identifier', address]]),
      minSendableSats: SENDABLE_SATS.min,
      maxSendableSats: SENDABLE_SATS.max,
      payerDataOptions: payerDataOptionsFor(platformFields),
      currencyOptions: await currencyOptions(deps, accounts),
      receiverKycStatus: KycStatus.Verified,
    });
    return response.toJsonString();
  };
}
