import type { DocumentStore } from '../../../../lib/store/document-store';
import type {
  AuditArchivedMarkers,
  AuditBalanceDocument,
  LedgerSnapshot,
  LedgerSnapshotSource,
} from '../app/ledger-audit';
import type { CardTransactionEntry } from '../../cards/app/card-transaction-store';
import type { LedgerStep } from '../domain/ledger-postings';
import type { Payment } from '../../payments/domain/payment';
import { CARD_TRANSACTIONS_COLLECTION } from '../../cards/store/card-transaction-document-store';
import { ARCHIVE_COLLECTION, BALANCES_COLLECTION, JOURNAL_COLLECTION } from './ledger-document-store';
import { PAYMENTS_COLLECTION } from '../../payments/store/payment-document-store';

/** A stored document as its record: `_id` as `id`, without the outbox and search members. */
function recordOf<T>(doc: Record<string, unknown>): T {
  const { _id, _outbox: _o, _search: _s, ...rest } = doc;
  return { id: _id, ...rest } as T;
}

/** Reads every document the ledger audit needs, collection by collection. */
export function createLedgerSnapshotReader(store: DocumentStore): LedgerSnapshotSource {
  return {
    async read(): Promise<LedgerSnapshot> {
      const [balances, archive, journal, payments, cards] = await Promise.all([
        store.collection(BALANCES_COLLECTION).find({}),
        store.collection(ARCHIVE_COLLECTION).find({}),
        store.collection(JOURNAL_COLLECTION).find({}),
        store.collection(PAYMENTS_COLLECTION).find({}),
        store.collection(CARD_TRANSACTIONS_COLLECTION).find({}),
      ]);
      return {
        balances: balances as unknown as AuditBalanceDocument[],
        archive: archive as unknown as AuditArchivedMarkers[],
        journal: journal.map((d) => ({
          platformId: d.platformId as string,
          step: d.step as LedgerStep,
          done: d.done === true,
        })),
        payments: payments.map((d) => recordOf<Payment>(d)),
        cardTransactions: cards.map((d) => recordOf<CardTransactionEntry>(d)),
      };
    },
  };
}
