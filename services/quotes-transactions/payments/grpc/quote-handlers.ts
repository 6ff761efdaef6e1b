import { QuoteServiceService } from '../../../../gen/quotes_transactions/v1/quotes';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { CreateQuote } from '../app/create-quote';
import type { ListExchangeRates } from '../app/exchange-rates';
import type { ExecuteQuote } from '../app/execute-quote';
import type { TransactionQueries } from '../app/transactions-query';
import type { CreateTransfer } from '../app/transfers';
import { toQuoteRecord, toTransactionRecord } from '../domain/payment-records';
import type { QuoteAuthorization } from '../app/quote-authorization';
import { AppError } from '../../../../lib/errors';
import { callerOf, present } from '../../shared/grpc/payment-caller';

export function bindQuoteService(useCases: {
  createQuote: CreateQuote;
  executeQuote: ExecuteQuote;
  queries: TransactionQueries;
  createTransfer: CreateTransfer;
  listExchangeRates: ListExchangeRates;
  quoteAuthorization?: QuoteAuthorization;
}) {
  const authorization = () => {
    if (!useCases.quoteAuthorization) {
      throw new AppError('CONFLICT', 'Strong Customer Authentication is not required here');
    }
    return useCases.quoteAuthorization;
  };
  return bindService(QuoteServiceService, {
    async createQuote(request, ctx) {
      const { idempotencyKey, ...body } = request;
      const p = await useCases.createQuote({ caller: callerOf(ctx), body, idempotencyKey: present(idempotencyKey) });
      return { quote: toQuoteRecord(p) };
    },
    async getQuote(request, ctx) {
      return { quote: toQuoteRecord(await useCases.queries.getQuote(callerOf(ctx), request.quoteId)) };
    },
    async listQuotes(request, ctx) {
      const page = await useCases.queries.listQuotes({
        caller: callerOf(ctx),
        customerId: present(request.customerId),
        sendingAccountId: present(request.sendingAccountId),
        receivingAccountId: present(request.receivingAccountId),
        sendingUmaAddress: present(request.sendingUmaAddress),
        receivingUmaAddress: present(request.receivingUmaAddress),
        status: present(request.status),
        createdAfter: present(request.createdAfter),
        createdBefore: present(request.createdBefore),
        limit: request.limit,
        cursor: present(request.cursor),
      });
      return {
        quotes: page.payments.map(toQuoteRecord),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
        totalCount: page.totalCount,
      };
    },
    async executeQuote(request, ctx) {
      const p = await useCases.executeQuote({
        caller: callerOf(ctx),
        quoteId: request.quoteId,
        idempotencyKey: present(request.idempotencyKey),
        walletSignature: present(request.walletSignature),
        requestId: present(request.requestId),
        scaFactor: present(request.scaFactor),
      });
      return { quote: toQuoteRecord(p) };
    },
    async authorizeQuote(request, ctx) {
      const { quoteId, ...proof } = request;
      return { quote: toQuoteRecord(await authorization().authorize(callerOf(ctx), quoteId, proof)) };
    },
    async resendQuoteAuthorization(request, ctx) {
      await authorization().resend(callerOf(ctx), request.quoteId);
      return {};
    },
    async createTransferIn(request, ctx) {
      const { idempotencyKey, ...body } = request;
      const p = await useCases.createTransfer({
        caller: callerOf(ctx),
        direction: 'IN',
        body,
        idempotencyKey: present(idempotencyKey),
      });
      return { transaction: toTransactionRecord(p) };
    },
    async createTransferOut(request, ctx) {
      const { idempotencyKey, ...body } = request;
      const p = await useCases.createTransfer({
        caller: callerOf(ctx),
        direction: 'OUT',
        body,
        idempotencyKey: present(idempotencyKey),
      });
      return { transaction: toTransactionRecord(p) };
    },
    async listExchangeRates(request, ctx) {
      const rates = await useCases.listExchangeRates({
        caller: callerOf(ctx),
        sourceCurrency: present(request.sourceCurrency),
        destinationCurrencies: request.destinationCurrencies,
        sendingAmount: request.sendingAmount,
      });
      return { rates };
    },
  });
}
