import { type Request } from 'express';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { jsonBodyOf } from '../http/request-body';
import { transactionJson } from '../../lib/contract/payment-record-json';
import { cardTransactionRecordJson } from '../../lib/contract/card-transaction-json';
import type { TransactionListEntry } from '../../gen/quotes_transactions/v1/transactions';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** An optional JSON body: absent is {}, anything else must be an object. */
function optionalBody(req: Request): Record<string, unknown> {
  const body = jsonBodyOf(req);
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** A row of the transaction list: a payment or a card transaction (type CARD). */
export const entryJson = (
  { entry }: TransactionListEntry,
) => (entry?.$case === 'cardTransaction' ? cardTransactionRecordJson(entry.value) : transactionJson(entry!.value));

const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Transactions: list with the reference's filters, read one, and the platform's actions on one. */
export function paymentsTransactionRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('listTransactions', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      customerId: q.query('customerId'),
      platformCustomerId: q.query('platformCustomerId'),
      accountIdentifier: q.query('accountIdentifier'),
      senderAccountIdentifier: q.query('senderAccountIdentifier'),
      receiverAccountIdentifier: q.query('receiverAccountIdentifier'),
      status: q.query('status'),
      type: q.query('type'),
      reference: q.query('reference'),
      startDate: q.query('startDate'),
      endDate: q.query('endDate'),
      limit: q.limit(),
      cursor: q.query('cursor'),
      sortOrder: q.query('sortOrder'),
    };
    q.done();
    const page = await peers.transactions.listTransactions(request, callContext(res));
    const data = page.entries.length ? page.entries.map(entryJson) : page.transactions.map(transactionJson);
    res.status(200).json(listJson(page, data, (item) => item));
  });

  routes.on('getTransaction', async (req, res) => {
    const { transaction, cardTransaction } = await peers.transactions.getTransaction({
      transactionId: req.params.transactionId,
    }, callContext(res));
    res.status(200).json(cardTransaction ? cardTransactionRecordJson(cardTransaction) : transactionJson(transaction!));
  });

  routes.on('listTransactionPostings', async (req, res) => {
    const { postings } = await peers.transactions.listTransactionPostings(
      { transactionId: req.params.transactionId },
      callContext(res),
    );
    res.status(200).json({ data: postings });
  });

  routes.on('confirmReceiptDelivery', async (req, res) => {
    const at = optionalString(optionalBody(req).receiptDeliveryConfirmedAt);
    const { transaction } = await peers.transactions.confirmReceiptDelivery({
      transactionId: req.params.transactionId,
      receiptDeliveryConfirmedAt: at,
    }, callContext(res));
    res.status(200).json(transactionJson(transaction!));
  });

  routes.on('approveTransaction', async (req, res) => {
    const info = optionalBody(req).receiverCustomerInfo;
    const receiverCustomerInfo = typeof info === 'object' && info !== null && !Array.isArray(info)
      ? info as Record<string, unknown>
      : undefined;
    const { transaction } = await peers.transactions.approveTransaction({
      transactionId: req.params.transactionId,
      receiverCustomerInfo,
    }, callContext(res));
    res.status(200).json(transactionJson(transaction!));
  });

  routes.on('rejectTransaction', async (req, res) => {
    const reason = optionalString(optionalBody(req).reason);
    const { transaction } = await peers.transactions.rejectTransaction({
      transactionId: req.params.transactionId,
      reason,
    }, callContext(res));
    res.status(200).json(transactionJson(transaction!));
  });

  routes.on('cancelTransaction', async (req, res) => {
    const reason = optionalString(optionalBody(req).reason);
    const { transaction } = await peers.transactions.cancelTransaction({
      transactionId: req.params.transactionId,
      reason,
    }, callContext(res));
    res.status(200).json(transactionJson(transaction!));
  });

  return routes;
}
