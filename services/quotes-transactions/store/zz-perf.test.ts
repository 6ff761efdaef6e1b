import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { createLedgerDocumentStore } from './ledger-document-store';

test('hot account', async () => {
  const { ledger } = createLedgerDocumentStore(createEmbeddedDocumentStore());
  const post = (i: number, account: string) => ledger.apply({ platformId: 'P', posting: { account, currency: 'USD', amount: 1 }, marker: `k${i}#0`, guarded: false, events: [], since: Date.now() - 1000 });
  for (const account of ['ledger:transit:USD:P', 'InternalAccount:x']) {
    for (const n of [0, 1000, 3000, 6000]) {
      const start = process.hrtime.bigint();
      for (let i = n; i < n + 200; i++) await post(i, account);
      console.log(account, n, (Number(process.hrtime.bigint() - start) / 1e6 / 200).toFixed(3), 'ms per posting');
      for (let i = n + 200; i < n + 1000; i++) await post(i, account);
    }
  }
}, 120000);
