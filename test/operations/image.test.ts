import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startKafkaMockCluster, type KafkaMockCluster } from '../kafka-mock/kafka-mock-cluster';

/**
 * The Dockerfile's image, without a Docker engine: scripts/check-image.mjs runs its prod-deps and
 * runtime stages in a scratch directory (the built tree's node_modules pruned to the production
 * dependencies, dist/, gen/) and starts every component from it as uid 1000: `all`, then the
 * gateway and each service as separate processes on Kafka. Each must become healthy and answer an authenticated call.
 */
jest.setTimeout(15 * 60_000);

let cluster: KafkaMockCluster;
beforeAll(async () => {
  cluster = await startKafkaMockCluster([
    'accounts.events.v1:3',
    'auth.events.v1:3',
    'payments.events.v1:3',
    'notifications.events.v1:3',
  ]);
}, 10 * 60_000);
afterAll(async () => {
  await cluster?.stop();
});

test('the runtime image starts every component as a non-root user', async () => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(__dirname, '..', '..', 'scripts', 'check-image.mjs')],
      {
        env: { ...process.env, KAFKA_BROKERS: cluster.brokers.join(',') },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 14 * 60_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
  if (code !== 0) throw new Error(`check-image failed (${code}):\n${output.slice(-6000)}`);
  expect(output).toContain('npm ls --omit=dev: the production tree is complete');
  expect(output).toContain('runtime: USER 1000:1000');
  expect(output).toMatch(/all \(default CMD.*\/readyz 200, GET \/customers 200/);
  expect(output).toMatch(/as separate processes: \/readyz 200, GET \/customers 200/);
  expect(output).toContain('image OK');
});
