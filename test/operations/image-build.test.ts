import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startKafkaMockCluster, type KafkaMockCluster } from '../kafka-mock/kafka-mock-cluster';
import { freePort } from '../fixtures/free-port';

/**
 * The real Dockerfile, every stage, built with podman on a stand-in `node:20-bookworm-slim` made
 * from this machine's Node and a debootstrapped Debian 12 (scripts/check-image-build.sh). Then the
 * image runs as Kubernetes runs it: each component in a container of its own, root filesystem
 * read-only, as the image's USER (uid 1000), on a Kafka-protocol broker, until the gateway answers
 * an authenticated call with 200. Containers run with `podman run`; where this machine refuses what
 * podman asks of the kernel (setting resource limits needs CAP_SYS_RESOURCE, missing here), with
 * runc itself on the image's root filesystem, the same OCI runtime podman drives, with no limits set.
 *
 * Minutes long: only with IMAGE_BUILD_CHECK=1 (`.ci/run` sets it).
 */
const ROOT = join(__dirname, '..', '..');
const IMAGE = 'localhost/grid-payments:check';
const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'] as const;
const ADDRESS_VARS = {
  auth: 'AUTH_ADDRESS',
  accounts: 'ACCOUNTS_ADDRESS',
  'quotes-transactions': 'QUOTES_TRANSACTIONS_ADDRESS',
  notifications: 'NOTIFICATIONS_ADDRESS',
} as const;
const TOPICS = [
  'accounts.events.v1:3',
  'auth.events.v1:3',
  'auth.api-tokens.v1:3',
  'payments.events.v1:3',
  'notifications.events.v1:3',
];
const CREDENTIALS = { id: 'image-check-token', secret: 'image-check-secret-0123456789' };
const START_TIMEOUT_MS = 120_000;

const describeBuild = process.env.IMAGE_BUILD_CHECK === '1' ? describe : describe.skip;
jest.setTimeout(25 * 60_000);

interface ImageConfig {
  User: string;
  Entrypoint: string[];
  Cmd: string[];
  Env: string[];
  WorkingDir: string;
}
interface Container {
  name: string;
  logs: Array<Record<string, unknown>>;
  output: string[];
  started: Promise<void>;
  stop(): Promise<void>;
}
type Mount = { host: string; at: string };

let buildOutput = '';
let config: ImageConfig;
let scratch: string;
let rootfs: string | undefined;
let cluster: KafkaMockCluster | undefined;
let runtime: 'podman' | 'runc';
const containers: Container[] = [];

function podmanRuns(): boolean {
  try {
    execFileSync('podman', ['run', '--rm', '--network=host', IMAGE, '--version'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * One OCI bundle for runc: the image's root filesystem read-only, the host's network, a tmpfs /tmp, no resource limits.
 */
function runcBundle(name: string, args: string[], env: Record<string, string>, mounts: Mount[]): string {
  const bundle = join(scratch, `bundle-${name}`);
  mkdirSync(bundle, { recursive: true });
  execFileSync('runc', ['spec'], { cwd: bundle });
  const spec = JSON.parse(execFileSync('cat', [join(bundle, 'config.json')], { encoding: 'utf8' }));
  const [uid, gid] = config.User.split(':').map(Number);
  spec.root = { path: rootfs, readonly: true };
  spec.process = {
    ...spec.process,
    terminal: false,
    user: { uid, gid },
    cwd: config.WorkingDir,
    args,
    env: [...config.Env, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)],
  };
  delete spec.process.rlimits;
  spec.linux.namespaces = spec.linux.namespaces.filter((n: { type: string }) => n.type !== 'network');
  spec.mounts.push({ destination: '/tmp', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'nodev', 'mode=1777'] });
  for (const m of mounts) {
    spec.mounts.push({ destination: m.at, type: 'bind', source: m.host, options: ['rbind', 'rw'] });
  }
  writeFileSync(join(bundle, 'config.json'), JSON.stringify(spec));
  return bundle;
}

/** `component` from the image, as its USER, read-only; resolves `started` at the component's `started` log line. */
function startContainer(component: string, env: Record<string, string>, mounts: Mount[] = []): Container {
  const name = `grid-image-check-${component}-${process.pid}`;
  const command = runtime === 'podman'
    ? ['podman', [
      'run',
      '--rm',
      '--name',
      name,
      '--read-only',
      '--user',
      config.User,
      '--network=host',
      '--tmpfs',
      '/tmp',
      ...mounts.flatMap((m) => ['-v', `${m.host}:${m.at}`]),
      ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      IMAGE,
      component,
    ]] as const
    : ['runc', [
      'run',
      '--bundle',
      runcBundle(component, [...config.Entrypoint, component], env, mounts),
      name,
    ]] as const;
  const child: ChildProcess = spawn(command[0], [...command[1]], { stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: Array<Record<string, unknown>> = [];
  const output: string[] = [];
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const started = new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`${component}: not started within ${START_TIMEOUT_MS} ms\n${output.slice(-20).join('\n')}`)),
      START_TIMEOUT_MS,
    );
    createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      try {
        logs.push(JSON.parse(line));
      } catch {
        return;
      }
      if (logs.at(-1)!.msg === 'started') {
        clearTimeout(timer);
        done();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`${component}: exited before it started\n${output.slice(-20).join('\n')}`));
    });
  });
  started.catch(() => undefined);
  const container: Container = {
    name,
    logs,
    output,
    started,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          execFileSync(runtime, runtime === 'podman' ? ['kill', '--signal', 'TERM', name] : ['kill', name, 'TERM'], {
            stdio: 'ignore',
          });
        } catch { /* gone */ }
      }
      const timer = setTimeout(() => {
        try {
          execFileSync(runtime, runtime === 'podman' ? ['kill', name] : ['kill', name, 'KILL'], { stdio: 'ignore' });
        } catch { /* gone */ }
      }, 20_000);
      await exited;
      clearTimeout(timer);
      if (runtime === 'runc') {
        try {
          execFileSync('runc', ['delete', '--force', name], { stdio: 'ignore' });
        } catch { /* gone */ }
      }
    },
  };
  containers.push(container);
  return container;
}

describeBuild('the Dockerfile, built and run', () => {
  beforeAll(async () => {
    const started = Date.now();
    try {
      buildOutput = execFileSync('bash', [join(ROOT, 'scripts', 'check-image-build.sh')], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 20 * 60_000,
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, IMAGE_TAG: IMAGE },
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(
        `check-image-build.sh failed: ${e.message}\n${String(e.stdout ?? '').slice(-4000)}\n${
          String(e.stderr ?? '').slice(-4000)
        }`,
      );
    }
    process.stdout.write(`image build check: built in ${Math.round((Date.now() - started) / 1000)} s\n`);
    config = JSON.parse(
      execFileSync('podman', ['image', 'inspect', IMAGE, '--format', '{{json .Config}}'], { encoding: 'utf8' }),
    );
    scratch = mkdtempSync(join(tmpdir(), 'grid-image-run-'));
    runtime = podmanRuns() ? 'podman' : 'runc';
    if (runtime === 'runc') rootfs = execFileSync('podman', ['image', 'mount', IMAGE], { encoding: 'utf8' }).trim();
    cluster = await startKafkaMockCluster(TOPICS);
  }, 25 * 60_000);

  afterAll(async () => {
    await Promise.all(containers.map((c) => c.stop()));
    await cluster?.stop();
    if (rootfs) {
      try {
        execFileSync('podman', ['image', 'unmount', IMAGE], { stdio: 'ignore' });
      } catch { /* still in use */ }
    }
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('builds every stage (build, prod-deps, runtime) from the stand-in base', () => {
    for (const stage of ['build', 'prod-deps', 'runtime']) {
      expect(buildOutput).toMatch(new RegExp(`FROM .* AS ${stage}`, 'i'));
    }
    expect(buildOutput).toContain(`image ${IMAGE} built`);
    expect(config).toMatchObject({
      User: '1000:1000',
      Entrypoint: ['node', 'dist/main.js'],
      Cmd: ['all'],
      WorkingDir: '/app',
    });
  });

  test('runs each component read-only as uid 1000 on the broker; the gateway answers an authorized call', async () => {
    const token = 'image-check-internal-token-0123456789abcdef';
    const addresses = Object.fromEntries(
      await Promise.all(SERVICES.map(async (s) => [ADDRESS_VARS[s], `127.0.0.1:${await freePort()}`])),
    );
    const shared = { ...addresses, INTERNAL_TOKEN: token, KAFKA_BROKERS: cluster!.brokers.join(',') };
    const services = SERVICES.map((service) => {
      const data = join(scratch, 'data', service);
      mkdirSync(data, { recursive: true });
      chownSync(data, 1000, 1000);
      return startContainer(service, {
        ...shared,
        GRPC_ADDRESS: addresses[ADDRESS_VARS[service]],
        DATA_DIR: '/app/data',
      }, [{ host: data, at: '/app/data' }]);
    });
    await Promise.all(services.map((s) => s.started));
    const port = await freePort();
    const gateway = startContainer('gateway', {
      ...shared,
      PORT: String(port),
      HOST: '127.0.0.1',
      SANDBOX_API_TOKEN_ID: CREDENTIALS.id,
      SANDBOX_API_CLIENT_SECRET: CREDENTIALS.secret,
    });
    await gateway.started;
    expect(gateway.logs.find((l) => l.msg === 'started')).toMatchObject({ component: 'gateway', bus: 'kafka' });
    const auth = `Basic ${Buffer.from(`${CREDENTIALS.id}:${CREDENTIALS.secret}`).toString('base64')}`;
    const deadline = Date.now() + START_TIMEOUT_MS;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = await fetch(`http://127.0.0.1:${port}/2025-10-13/customers`, { headers: { authorization: auth } }).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/2025-10-13/customers`)).status).toBe(401);
    process.stdout.write(`image build check: components ran with ${runtime}\n`);
  });
});
