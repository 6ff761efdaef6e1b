import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A secured-broker configuration is checked when a component starts, before it connects to anything. */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const dataDir = mkdtempSync(join(tmpdir(), 'grid-kafka-security-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function startNotifications(env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [MAIN, 'notifications'], {
    env: {
      ...process.env,
      MONGODB_URI: '',
      DATA_DIR: dataDir,
      INTERNAL_TOKEN: 'x'.repeat(32),
      KAFKA_BROKERS: '127.0.0.1:1',
      GRPC_ADDRESS: '127.0.0.1:0',
      AUTH_ADDRESS: '127.0.0.1:1',
      ACCOUNTS_ADDRESS: '127.0.0.1:1',
      QUOTES_TRANSACTIONS_ADDRESS: '127.0.0.1:1',
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

test.each([
  [{ KAFKA_TLS_CA_FILE: '/nonexistent/ca.pem' }, /^configuration error: KAFKA_TLS_CA_FILE cannot be read \(ENOENT/],
  [
    { KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'grid' },
    /^configuration error: KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM=scram-sha-256/,
  ],
  [
    { KAFKA_SASL_MECHANISM: 'oauthbearer', KAFKA_SASL_USERNAME: 'grid', KAFKA_SASL_PASSWORD: 'pw' },
    /^configuration error: KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512/,
  ],
])('refuses %j with exit code 2 and one line naming the setting', (env, message) => {
  const run = startNotifications(env);
  expect(run.stderr.trim()).toMatch(message);
  expect(run.status).toBe(2);
});
