import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The generator is a plain CommonJS script (operators run it with node); jest loads it as is.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateTable, documentWith, TABLE_DOCUMENT } = require('../../scripts/config-reference.cjs') as {
  generateTable(): { table: string; problems: string[]; count: number };
  documentWith(table: string): { current: string; next: string };
  TABLE_DOCUMENT: string;
};

describe(`the configuration table (${TABLE_DOCUMENT})`, () => {
  const generated = generateTable();

  it('describes every variable the code reads, each with a meaning', () => {
    expect(generated.problems).toEqual([]);
  });

  it('is what the config definitions generate today (run `node scripts/config-reference.cjs` when this fails)', () => {
    const { current, next } = documentWith(generated.table);
    expect(current === next).toBe(true);
  });

  it.each([
    'WEBHOOK_TIMEOUT_MS',
    'WEBHOOK_MAX_ATTEMPTS',
    'WEBHOOK_RETRY_BASE_MS',
    'WEBHOOK_POLL_INTERVAL_MS',
    'WEBHOOK_DELIVERY_CONCURRENCY',
    'QUOTE_VALIDITY_SECONDS',
    'LEDGER_RECOVERY_AFTER_MS',
    'SETTLEMENT_POLL_MS',
    'SANDBOX_PAYMENTS_ENABLED',
    'ACCOUNTS_UMA_DOMAIN',
    'KAFKA_BROKERS',
    'KAFKA_STALL_MS',
    'OTEL_EXPORTER_OTLP_PROTOCOL',
    'DATA_DIR',
  ])('lists %s', (name) => {
    const document = readFileSync(join(__dirname, '..', '..', TABLE_DOCUMENT), 'utf8');
    expect(document).toMatch(new RegExp(`^\\| \`${name}\` \\| [^|]+ \\| [^|]+ \\|`, 'm'));
  });

  it('finds a variable added to a schema without a description', () => {
    // The scanner reads the sources, so a schema entry it could not see would silently drop out:
    // every schema file of the services must have been found.
    expect(generated.table).toMatch(/`WALLET_SESSION_TTL_MS` \| auth/);
    expect(generated.table).toMatch(/`GATEWAY_MAX_CONNECTIONS` \| gateway/);
    expect(generated.table).toMatch(/`SETTLEMENT_POLL_MS` \| quotes-transactions/);
    expect(generated.count).toBeGreaterThanOrEqual(80);
  });
});
