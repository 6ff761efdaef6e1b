import { type Request } from 'express';
import type {
  CreateQuoteRequest,
  CreateTransferInRequest,
  CreateTransferOutRequest,
  ExchangeRate,
} from '../../gen/quotes_transactions/v1/quotes';
import { AppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { walletSignatureStamp } from '../http/wallet-signature';
import { bodyMessage, jsonBodyOf } from '../http/request-body';
import { quoteJson, transactionJson } from '../../lib/contract/payment-record-json';
import { listJson, RestRequestReader } from './rest-request';
import { RestBody } from './rest-body';
import { scaProofOf } from './sca-routes';
import { OperationHandlers } from './operation-routes';

/** A request header given once, or undefined. */
export function header(req: Request, name: string): string | undefined {
  return nonEmpty(req.get(name));
}

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** A quote or transfer body as its request message (quotes_transactions.v1), with the Idempotency-Key header. */
export function paymentRequest<T extends object>(req: Request, message: string): T {
  return {
    ...bodyMessage<T>(req, `quotes_transactions.v1.${message}`),
    idempotencyKey: header(req, 'Idempotency-Key'),
  };
}

function exchangeRateJson(r: ExchangeRate) {
  const currency = (c: ExchangeRate['sourceCurrency']) => ({
    code: c!.code,
    name: c!.name,
    symbol: c!.symbol,
    decimals: c!.decimals,
  });
  return {
    sourceCurrency: currency(r.sourceCurrency),
    sendingAmount: r.sendingAmount,
    minSendingAmount: r.minSendingAmount,
    maxSendingAmount: r.maxSendingAmount,
    destinationCurrency: currency(r.destinationCurrency),
    destinationPaymentRail: r.destinationPaymentRail,
    receivingAmount: r.receivingAmount,
    exchangeRate: r.exchangeRate,
    fees: { fixed: r.fees?.fixed ?? 0, total: r.fees?.total ?? 0 },
    updatedAt: r.updatedAt,
  };
}

/** `destinationCurrency` may be repeated; every other parameter once. */
function destinationCurrencies(req: Request): string[] {
  const value = req.query.destinationCurrency;
  if (value === undefined || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v): v is string => typeof v === 'string')) {
    throw AppError.invalidInput('Invalid destinationCurrency', [{
      field: 'destinationCurrency',
      message: 'must be currency codes',
    }]);
  }
  return list.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** The optional execute body's preferred SCA factor (its type is checked by the contract). */
function scaFactorOf(body: unknown): string | undefined {
  const value = (body as { scaFactor?: unknown } | undefined)?.scaFactor;
  return typeof value === 'string' ? value : undefined;
}

/** Quotes and their execution, the deprecated same-currency transfers, and exchange rates. */
export function paymentsQuoteRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('createQuote', async (req, res) => {
    const { quote } = await peers.quotes.createQuote(
      paymentRequest<CreateQuoteRequest>(req, 'CreateQuoteRequest'),
      callContext(res),
    );
    res.status(201).json(quoteJson(quote!));
  });

  routes.on('listQuotes', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      customerId: q.query('customerId'),
      sendingAccountId: q.query('sendingAccountId'),
      receivingAccountId: q.query('receivingAccountId'),
      sendingUmaAddress: q.query('sendingUmaAddress'),
      receivingUmaAddress: q.query('receivingUmaAddress'),
      status: q.query('status'),
      createdAfter: q.query('createdAfter'),
      createdBefore: q.query('createdBefore'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.quotes.listQuotes(request, callContext(res));
    res.status(200).json(listJson(page, page.quotes, quoteJson));
  });

  routes.on('getQuote', async (req, res) => {
    const { quote } = await peers.quotes.getQuote({ quoteId: req.params.quoteId }, callContext(res));
    res.status(200).json(quoteJson(quote!));
  });

  routes.on('executeQuote', async (req, res) => {
    const { quote } = await peers.quotes.executeQuote({
      quoteId: req.params.quoteId,
      idempotencyKey: header(req, 'Idempotency-Key'),
      walletSignature: nonEmpty(walletSignatureStamp(req)),
      requestId: header(req, 'Request-Id'),
      scaFactor: scaFactorOf(jsonBodyOf(req)),
    }, callContext(res));
    res.status(200).json(quoteJson(quote!));
  });

  routes.on('authorizeQuote', async (req, res) => {
    const body = RestBody.of(jsonBodyOf(req));
    const { challengeId: _unused, ...proof } = scaProofOf(body);
    body.done();
    const { quote } = await peers.quotes.authorizeQuote({ quoteId: req.params.quoteId, ...proof }, callContext(res));
    res.status(200).json(quoteJson(quote!));
  });

  routes.on('resendQuoteScaCode', async (req, res) => {
    await peers.quotes.resendQuoteAuthorization({ quoteId: req.params.quoteId }, callContext(res));
    res.status(204).end();
  });

  routes.on('transferIn', async (req, res) => {
    const { transaction } = await peers.quotes.createTransferIn(
      paymentRequest<CreateTransferInRequest>(req, 'CreateTransferInRequest'),
      callContext(res),
    );
    res.status(201).json(transactionJson(transaction!));
  });

  routes.on('transferOut', async (req, res) => {
    const { transaction } = await peers.quotes.createTransferOut(
      paymentRequest<CreateTransferOutRequest>(req, 'CreateTransferOutRequest'),
      callContext(res),
    );
    res.status(201).json(transactionJson(transaction!));
  });

  routes.on('listExchangeRates', async (req, res) => {
    const q = new RestRequestReader(req);
    const sourceCurrency = q.query('sourceCurrency');
    const amount = q.query('sendingAmount');
    q.done();
    if (amount !== undefined && !/^\d{1,16}$/.test(amount)) {
      throw new AppError('INVALID_AMOUNT', 'sendingAmount must be an integer ≥ 0 (minor units)');
    }
    const { rates } = await peers.quotes.listExchangeRates(
      {
        sourceCurrency,
        destinationCurrencies: destinationCurrencies(req),
        sendingAmount: amount === undefined ? undefined : Number(amount),
      },
      callContext(res),
    );
    res.status(200).json({ data: rates.map(exchangeRateJson) });
  });

  return routes;
}
