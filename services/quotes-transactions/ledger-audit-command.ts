import { resolve } from 'node:path';
import { LedgerServiceService } from '../../gen/quotes_transactions/v1/ledger';
import { ConfigError } from '../../lib/config';
import { createServiceClient } from '../../lib/grpc/grpc-client';
import { readGrpcTls } from '../../lib/grpc/transport-security';
import { openServiceStore } from '../../lib/runtime/adapters';
import { createLedgerAudit, type AuditCheck, type LedgerAuditReport } from './ledger/app/ledger-audit';
import { createLedgerSnapshotReader } from './ledger/store/ledger-snapshot-reader';

/**
 * `npm run ledger:audit`: the read-only ledger audit (docs/durability.md). With
 * QUOTES_TRANSACTIONS_ADDRESS (and INTERNAL_TOKEN) it asks the running service's AuditLedger RPC;
 * otherwise it reads the store itself: MONGODB_URI, or the embedded store in DATA_DIR (whose lock
 * refuses while the system runs on it: stop it first, or use the RPC). Prints the report as JSON;
 * exits 0 when clean, 1 when it found problems, 2 when it could not run.
 */
async function audit(env: NodeJS.ProcessEnv): Promise<LedgerAuditReport> {
  const address = env.QUOTES_TRANSACTIONS_ADDRESS?.trim();
  if (address) {
    const internalToken = env.INTERNAL_TOKEN;
    if (!internalToken) {
      throw new ConfigError('INTERNAL_TOKEN', 'is required to call the service at QUOTES_TRANSACTIONS_ADDRESS');
    }
    const client = createServiceClient(LedgerServiceService, address, {
      internalToken,
      tls: readGrpcTls(env) ?? null,
      timeoutMs: 600_000,
    });
    try {
      const answer = await client.auditLedger({});
      const counts = answer.counts
        ?? { balances: 0, markers: 0, journalSteps: 0, payments: 0, cardTransactions: 0, internalAccounts: 0 };
      const problems = answer.problems.map((p) => ({ ...p, check: p.check as AuditCheck }));
      return { clean: answer.clean, problems, inFlight: answer.inFlight, counts };
    } finally {
      client.close();
    }
  }
  const dataDir = env.DATA_DIR?.trim() || resolve(__dirname, '..', '..', '..', 'data');
  const store = await openServiceStore('quotes-transactions', { ...env, DATA_DIR: dataDir });
  try {
    return await createLedgerAudit({ source: createLedgerSnapshotReader(store) }).run();
  } finally {
    await store.close();
  }
}

audit(process.env).then((report) => {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.exitCode = report.clean ? 0 : 1;
}, (err: unknown) => {
  process.stderr.write(`ledger audit: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
