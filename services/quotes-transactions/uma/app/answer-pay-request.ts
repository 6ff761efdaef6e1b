import { decrypt } from 'eciesjs';
import {
  ErrorCode,
  getPayReqResponse,
  PayRequest,
  UmaError,
  verifyPayReqSignature,
  type NonceValidator,
} from '@uma-sdk/core';
import type { RateSource } from '../../rates/adapters/rate-source';
import type { UmaAddressDirectory } from '../../payments/app/same-server-payments';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import type { UmaIdentity } from '../adapters/uma-identity';
import { checkCounterpartyDomain, type VaspPublicKeys } from '../adapters/vasp-public-keys';
import { msatsPerUnit } from '../domain/uma-amounts';
import { counterpartyInformationOf } from '../domain/uma-payer-data';
import { payerDataFor, requiredPayerData } from '../domain/payer-data-fields';
import {
  postTransactionPath,
  receivableAccounts,
  pathSegment,
  requestUrl,
  umaAddressOf,
  vaspDomainOf,
  type ReceivableAccount,
} from '../domain/uma-receiver';
import { SENDABLE_SATS } from './answer-lnurlp';
import type { IncomingUmaPayments } from './incoming-uma-payments';
import type { LightningNode } from './lightning-node';
import type { UmaRecords } from './uma-records';

export interface AnswerPayRequestDeps {
  identity: UmaIdentity;
  directory: UmaAddressDirectory;
  keys: VaspPublicKeys;
  nonces: NonceValidator;
  rates: RateSource;
  lightning: LightningNode;
  records: UmaRecords;
  incoming: IncomingUmaPayments;
  /** How long the invoice we answer with can be paid. */
  invoiceExpirySeconds: number;
}

function parse(body: string): PayRequest {
  try {
    return PayRequest.fromJson(body);
  } catch (err) {
    throw new UmaError(
      `not a pay request: ${(err as Error).message.slice(0, 300)}`,
      ErrorCode.PARSE_PAYREQ_REQUEST_ERROR,
    );
  }
}

/** The sending VASP's signed pay request, checked: its compliance signature, nonce and timestamp. */
async function verified(
  deps: AnswerPayRequestDeps,
  request: PayRequest,
): Promise<{ senderAddress: string; senderDomain: string }> {
  if (!request.isUma()) {
    throw new UmaError(
      'only UMA pay requests are served (payer identifier and compliance data)',
      ErrorCode.NON_UMA_LNURL_NOT_SUPPORTED,
    );
  }
  const senderAddress = request.payerData.identifier!;
  const senderDomain = vaspDomainOf(senderAddress);
  if (!senderDomain) {
    throw new UmaError(
      `the payer identifier ${senderAddress.slice(0, 100)} is not an UMA address`,
      ErrorCode.INVALID_INPUT,
    );
  }
  checkCounterpartyDomain(senderDomain, deps.identity.sandbox);
  const keys = await deps.keys.keysOf(senderDomain);
  if (!(await verifyPayReqSignature(request, keys, deps.nonces))) {
    deps.keys.forget(senderDomain);
    throw new UmaError(
      `the pay request's signature does not verify against ${senderDomain}'s published key`,
      ErrorCode.INVALID_SIGNATURE,
    );
  }
  return { senderAddress, senderDomain };
}

/** The travel-rule information the sender encrypted to our encryption key, in clear (undefined when none was sent). */
function travelRuleInfo(deps: AnswerPayRequestDeps, request: PayRequest): string | undefined {
  const encrypted = request.payerData?.compliance?.encryptedTravelRuleInfo;
  if (!encrypted) return undefined;
  try {
    return Buffer.from(decrypt(deps.identity.encryptionKey, Buffer.from(encrypted, 'hex'))).toString('utf8');
  } catch {
    throw new UmaError(
      'the travel-rule information cannot be decrypted with our encryption key',
      ErrorCode.INVALID_INPUT,
    );
  }
}

function landing(accounts: ReceivableAccount[], code: string | undefined): ReceivableAccount {
  const account = accounts.find((a) => a.currency === code);
  if (!account) throw new UmaError(`the receiver cannot receive ${code ?? 'no currency'}`, ErrorCode.INVALID_CURRENCY);
  return account;
}

/**
 * The answer with the payee data the sender asked for, from what the receiving platform's approval
 * gave (`receiverCustomerInfo`). The payee's compliance signature covers the identifiers, nonce and
 * timestamp only, so the fields join the signed answer without signing it again.
 */
function withPayeeData(responseJson: string, payee: Record<string, string>): string {
  if (!Object.keys(payee).length) return responseJson;
  const response = JSON.parse(responseJson) as { payeeData?: Record<string, unknown> };
  response.payeeData = { ...payee, ...response.payeeData };
  return JSON.stringify(response);
}

/**
 * The pay-request callback: a verified pay request becomes an INCOMING transaction that the
 * receiving platform is asked to approve (the incoming-payment webhook); approved, we answer with
 * the invoice that settles it (signed payee compliance data); refused, with the protocol's error.
 * The receiver is credited once that invoice is paid.
 */
export function createAnswerPayRequest(deps: AnswerPayRequestDeps) {
  return async function answerPayRequest(pathAndQuery: string, body: string): Promise<string> {
    const request = parse(body);
    const sender = await verified(deps, request);
    const url = requestUrl(deps.identity, pathAndQuery);
    const username = pathSegment(url, 3);
    if (!username) throw new UmaError('the path names no user', ErrorCode.USER_NOT_FOUND);
    const receiverAddress = umaAddressOf(username, deps.identity.domain);
    const accounts = receivableAccounts(await deps.directory.holders(receiverAddress));
    if (!accounts.length) throw new UmaError(`no UMA user ${receiverAddress}`, ErrorCode.USER_NOT_FOUND);
    const account = landing(accounts, request.receivingCurrencyCode);
    const currency = findCurrency(account.currency)!;
    const multiplier = msatsPerUnit(await deps.rates.rate(account.currency, 'BTC'), currency.decimals);
    const msats = request.sendingAmountCurrencyCode ? request.amount * multiplier : request.amount;
    if (!Number.isSafeInteger(msats) || msats < SENDABLE_SATS.min * 1000 || msats > SENDABLE_SATS.max * 1000) {
      throw new UmaError(
        `the amount must be between ${SENDABLE_SATS.min} and ${SENDABLE_SATS.max} sats`,
        ErrorCode.AMOUNT_OUT_OF_RANGE,
      );
    }
    const trInfo = travelRuleInfo(deps, request);
    const transactionId = deps.incoming.newTransactionId();
    let created: { invoice: string; paymentHash: string; amountMsats: number } | undefined;
    const response = await getPayReqResponse({
      request,
      conversionRate: multiplier,
      receivingCurrencyCode: currency.code,
      receivingCurrencyDecimals: currency.decimals,
      receiverFeesMillisats: 0,
      receiverChannelUtxos: [],
      receivingVaspPrivateKey: deps.identity.signingKey,
      payeeIdentifier: receiverAddress,
      metadata: JSON.stringify([['text/plain', `Pay ${receiverAddress}`], ['text/identifier', receiverAddress]]),
      utxoCallback: `${deps.identity.scheme}://${deps.identity.domain}${postTransactionPath(transactionId)}`,
      invoiceCreator: {
        createUmaInvoice: async (amountMsats, metadata) => {
          const invoice = await deps.lightning.createInvoice({
            amountMsats,
            description: metadata.slice(0, 600),
            expirySeconds: deps.invoiceExpirySeconds,
          });
          created = { ...invoice, amountMsats };
          return invoice.invoice;
        },
      },
    });
    const received = response.converted?.amount ?? 0;
    if (received < 1) {
      throw new UmaError(
        'the amount is less than the smallest unit of the receiving currency',
        ErrorCode.AMOUNT_OUT_OF_RANGE,
      );
    }
    await deps.records.saveIncoming({
      transactionId,
      platformId: account.platformId,
      paymentHash: created!.paymentHash,
      invoice: created!.invoice,
      amountMsats: created!.amountMsats,
      senderVaspDomain: sender.senderDomain,
      senderUmaAddress: sender.senderAddress,
      expiresAt: new Date(Date.now() + deps.invoiceExpirySeconds * 1000).toISOString(),
    });
    const decision = await deps.incoming.receive({
      transactionId,
      account,
      amount: received,
      senderUmaAddress: sender.senderAddress,
      counterpartyInformation: counterpartyInformationOf(request.payerData, trInfo),
      requestedReceiverFields: requiredPayerData(request.requestedPayeeData),
      ...(request.comment ? { description: request.comment.slice(0, 255) } : {}),
    });
    if (decision.kind === 'REFUSED') throw new UmaError(decision.message, decision.code);
    const payee = payerDataFor(request.requestedPayeeData, decision.payment.receiverCustomerInfo);
    return withPayeeData(response.toJsonString(), payee);
  };
}
