import { activeTraceparent } from '../../../../lib/bus/event-trace-context';
import { instruments } from '../../../../lib/metrics';
import { withEvents, withInitialEvents } from '../../../../lib/bus/outbox';
import {
  DuplicateKeyError,
  type DocumentStore,
  type Filter,
  type IndexSpec,
} from '../../../../lib/store/document-store';
import { IdempotencyKeyTaken, type PaymentStore, type TransactionQuery } from '../app/payment-store';
import type { Payment } from '../domain/payment';

/** The stored payment plus the identifiers the list filters match (sender and receiver sides). */
type PaymentDoc = { _id: string; _search: { sender: string[]; receiver: string[] } } & Omit<Payment, 'id'>;

export const PAYMENTS_COLLECTION = 'payments';

function identifiers(p: Payment): PaymentDoc['_search'] {
  const side = (s: Payment['source'] | Payment['destination']) =>
    ('accountId' in s ? [s.accountId] : []).concat('umaAddress' in s ? [s.umaAddress] : []);
  return { sender: side(p.source), receiver: side(p.destination) };
}

function toDoc(p: Payment): PaymentDoc {
  const { id, ...rest } = p;
  return { _id: id, _search: identifiers(p), ...rest };
}

function fromDoc(doc: PaymentDoc): Payment {
  const { _id, _search, ...rest } = doc;
  delete (rest as Record<string, unknown>)._outbox;
  return { id: _id, ...rest } as Payment;
}

/** Structural equality of stored values (what a document holds: plain objects, arrays, scalars, dates). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    return a.length === (b as unknown[]).length && a.every((v, i) => sameValue(v, (b as unknown[])[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length
    && ka.every((k, i) =>
      k === kb[i] && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
    );
}

/**
 * The list filter. Conditions on `source`/`destination` are asked of `_search` (every identifier of
 * each side), whose entries find them and count them; the agent's accounts are also restated there.
 */
function listFilter(platformId: string, q: TransactionQuery): Filter {
  const and: Filter[] = [{ platformId }];
  const exact = {
    customerId: q.customerId,
    platformCustomerId: q.platformCustomerId,
    status: q.status,
    type: q.type,
    reference: q.reference,
  };
  for (const [field, value] of Object.entries(exact)) if (value !== undefined) and.push({ [field]: value });
  if (q.accountIdentifier) {
    and.push({ $or: [{ '_search.sender': q.accountIdentifier }, { '_search.receiver': q.accountIdentifier }] });
  }
  if (q.senderAccountIdentifier) and.push({ '_search.sender': q.senderAccountIdentifier });
  if (q.receiverAccountIdentifier) and.push({ '_search.receiver': q.receiverAccountIdentifier });
  const nested = {
    'source.accountId': q.sourceAccountId,
    'destination.accountId': q.destinationAccountId,
    'source.umaAddress': q.sourceUmaAddress,
    'destination.umaAddress': q.destinationUmaAddress,
  };
  // `_search` holds each side's account id and UMA address, which never look alike: the same payments.
  for (const [field, value] of Object.entries(nested)) {
    if (value !== undefined) and.push({ [field.startsWith('source.') ? '_search.sender' : '_search.receiver']: value });
  }
  if (q.touchingAccountIds) {
    and.push({
      $or: [{ 'source.accountId': { $in: q.touchingAccountIds } }, {
        'destination.accountId': { $in: q.touchingAccountIds },
      }],
    });
    and.push({
      $or: [{ '_search.sender': { $in: q.touchingAccountIds } }, { '_search.receiver': { $in: q.touchingAccountIds } }],
    });
  }
  if (q.statuses) and.push({ status: { $in: q.statuses } });
  if (q.quotesOnly) and.push(QUOTES_ONLY);
  if (q.startDate) and.push({ createdAt: { $gte: q.startDate } });
  if (q.endDate) and.push({ createdAt: { $lte: q.endDate } });
  return { $and: and };
}

/** Payments made from a quote (the quote list); the partial indexes below cover exactly these. */
const QUOTES_ONLY = { 'quote.id': { $exists: true } };

/**
 * The indexes of the documented list filters (GET /transactions, /quotes, /agents/me/transactions),
 * each page newest first: the platform's payments, a customer's, a status's and a type's in order of
 * `createdAt` (a range of dates is a range of those entries); the quotes alone, and by status. The
 * identifiers of each side (`_search`) by date too, as a busy account has as many payments as its platform;
 * `platformCustomerId` and `reference` pick few payments: their entries find them, then they are sorted.
 */
export const PAYMENT_LIST_INDEXES: IndexSpec[] = [
  { keys: { platformId: 1, createdAt: -1, _id: -1 } },
  { keys: { platformId: 1, customerId: 1, createdAt: -1 } },
  { keys: { platformId: 1, status: 1, createdAt: -1 }, name: 'payment_status_created' },
  { keys: { platformId: 1, type: 1, createdAt: -1 }, name: 'payment_type_created' },
  { keys: { platformId: 1, createdAt: -1 }, partialFilter: QUOTES_ONLY, name: 'quote_created' },
  // `_id` last: a key pattern apart from payment_status_created's for MongoDB; the same entries here.
  {
    keys: { platformId: 1, status: 1, createdAt: -1, _id: -1 },
    partialFilter: QUOTES_ONLY,
    name: 'quote_status_created',
  },
  { keys: { '_search.sender': 1 }, name: 'payment_sender' },
  { keys: { '_search.receiver': 1 }, name: 'payment_receiver' },
  // A side's payments (and quotes) by date: a busy account's page and its count read only its entries (multikey: a
  // side's account id and UMA address each lead).
  { keys: { platformId: 1, '_search.sender': 1, createdAt: -1 }, name: 'payment_sender_created' },
  { keys: { platformId: 1, '_search.receiver': 1, createdAt: -1 }, name: 'payment_receiver_created' },
  {
    keys: { platformId: 1, '_search.sender': 1, createdAt: -1 },
    partialFilter: QUOTES_ONLY,
    name: 'quote_sender_created',
  },
  {
    keys: { platformId: 1, '_search.receiver': 1, createdAt: -1 },
    partialFilter: QUOTES_ONLY,
    name: 'quote_receiver_created',
  },
  { keys: { platformCustomerId: 1 }, name: 'payment_platform_customer' },
  { keys: { reference: 1 }, name: 'payment_reference' },
];

export function createPaymentDocumentStore(store: DocumentStore) {
  const payments = store.collection<PaymentDoc>(PAYMENTS_COLLECTION);

  const port: PaymentStore & { ensureIndexes(): Promise<void> } = {
    async ensureIndexes() {
      await payments.createIndex({
        keys: { platformId: 1, 'quote.id': 1 },
        unique: true,
        partialFilter: { 'quote.id': { $exists: true } },
      });
      await payments.createIndex({
        keys: { platformId: 1, 'idempotency.key': 1 },
        unique: true,
        partialFilter: { 'idempotency.key': { $exists: true } },
      });
      for (const spec of PAYMENT_LIST_INDEXES) await payments.createIndex(spec);
      await payments.createIndex({ keys: { nextActionAt: 1 } });
      await payments.createIndex({ keys: { 'pendingStep.startedAt': 1 } });
    },
    async insert(payment, events) {
      try {
        const traceparent = payment.traceparent ?? activeTraceparent();
        await payments.insertOne(withInitialEvents(toDoc(traceparent ? { ...payment, traceparent } : payment), events));
        instruments().paymentTransitions.add(1, { type: payment.type, status: payment.status });
      } catch (err) {
        if (
          err instanceof DuplicateKeyError && payment.idempotency
          && (await port.getByIdempotencyKey(payment.platformId, payment.idempotency.key))
        ) {
          throw new IdempotencyKeyTaken(payment.idempotency.key);
        }
        throw err;
      }
    },
    async get(platformId, id) {
      const doc = await payments.findOne({ _id: id, platformId });
      return doc && fromDoc(doc);
    },
    async getByQuote(platformId, quoteId) {
      const doc = await payments.findOne({ platformId, 'quote.id': quoteId });
      return doc && fromDoc(doc);
    },
    async getByIdempotencyKey(platformId, key) {
      const doc = await payments.findOne({ platformId, 'idempotency.key': key });
      return doc && fromDoc(doc);
    },
    async update(current, next, events) {
      const { _id, _search, ...fields } = toDoc(next);
      // Only the members that changed: the version condition guarantees the stored document is `current`.
      const set = Object.fromEntries(
        Object.entries(fields).filter(([k, v]) => !sameValue((current as unknown as Record<string, unknown>)[k], v)),
      );
      const unset = Object.fromEntries(
        Object.keys(current).filter((k) => k !== 'id' && !(k in next)).map((k) => [k, '']),
      );
      const update = withEvents({ $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) }, events);
      const result = await payments.updateOne(
        { _id, platformId: current.platformId, version: current.version },
        update,
      );
      if (result.matchedCount === 1 && next.status !== current.status) {
        instruments().paymentTransitions.add(1, { type: next.type, status: next.status });
      }
      return result.matchedCount === 1;
    },
    async list(platformId, q) {
      const filter = listFilter(platformId, q);
      const direction = q.sortOrder === 'asc' ? 1 : -1;
      const page = q.after
        ? {
          $and: [filter, {
            $or: [
              { createdAt: { [direction === 1 ? '$gt' : '$lt']: q.after.createdAt } },
              { createdAt: q.after.createdAt, _id: { [direction === 1 ? '$gt' : '$lt']: q.after.id } },
            ],
          }],
        }
        : filter;
      const [docs, totalCount] = await Promise.all([
        payments.find(page, { sort: { createdAt: direction, _id: direction }, limit: q.limit + 1 }),
        payments.countDocuments(filter),
      ]);
      return { payments: docs.slice(0, q.limit).map(fromDoc), hasMore: docs.length > q.limit, totalCount };
    },
    async due(now, staleBefore, limit) {
      const docs = await payments.find(
        {
          $or: [{ nextActionAt: { $lte: now }, pendingStep: { $exists: false } }, {
            'pendingStep.startedAt': { $lte: staleBefore },
          }],
        },
        { sort: { nextActionAt: 1 }, limit },
      );
      return docs.map(fromDoc);
    },
  };
  return { payments: port, collection: payments };
}
