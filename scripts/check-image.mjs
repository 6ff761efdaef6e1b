#!/usr/bin/env node
// Proves the Dockerfile's image starts, without a Docker engine.
//
// Reads the Dockerfile and runs its `prod-deps` and `runtime` stages instruction by instruction in a
// scratch directory (one folder per stage standing in for its filesystem; the `build` stage is this
// working tree after `npm run build`). Then starts the image's ENTRYPOINT as its USER (setpriv):
// `all`, and, when KAFKA_BROKERS is set, the gateway and the four services as separate processes.
// Each must report healthy and answer an authenticated API call. Exits non-zero with the reason.
//
//   npm run build && node scripts/check-image.mjs            # `all` only
//   KAFKA_BROKERS=host:port node scripts/check-image.mjs     # also every component on its own
//   KEEP_SCRATCH=1 ...                                        # leave the scratch directory for a look
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SANDBOX = { tokenId: 'image-check-token', secret: 'image-check-secret-0123456789' };
const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'];
const ADDRESS_VARS = {
  auth: 'AUTH_ADDRESS',
  accounts: 'ACCOUNTS_ADDRESS',
  'quotes-transactions': 'QUOTES_TRANSACTIONS_ADDRESS',
  notifications: 'NOTIFICATIONS_ADDRESS',
};
const START_TIMEOUT_MS = 90_000;

const say = (line) => process.stdout.write(`check-image: ${line}\n`);

/** Dockerfile → stages of {op, args}; continuation lines joined, comments dropped. */
export function parseDockerfile(text) {
  const stages = [];
  const logical = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/).map((l) => l.trim()).filter((l) =>
    l && !l.startsWith('#')
  );
  for (const line of logical) {
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(line);
    const upper = op.toUpperCase();
    if (upper === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ base: m[1], name: m[2] ?? String(stages.length), steps: [] });
    } else if (stages.length) {
      stages.at(-1).steps.push({ op: upper, args });
    }
  }
  return stages;
}

/** COPY flags and sources/destination; JSON-array form is not used in our Dockerfile. */
function parseCopy(args) {
  const words = args.split(/\s+/);
  const flags = Object.fromEntries(words.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=')));
  const paths = words.filter((w) => !w.startsWith('--'));
  return { flags, sources: paths.slice(0, -1), dest: paths.at(-1) };
}

/** Runs one stage in `fsRoot` (its stand-in for `/`). Answers what the image records (env, user, entrypoint). */
function runStage(stage, fsRoot, stageRoots) {
  const image = { env: {}, workdir: '/', user: undefined, entrypoint: [], cmd: [], volumes: [] };
  const inside = (p) => join(fsRoot, p.startsWith('/') ? p : join(image.workdir, p));
  for (const { op, args } of stage.steps) {
    if (op === 'WORKDIR') {
      image.workdir = args.startsWith('/') ? args : join(image.workdir, args);
      mkdirSync(inside(image.workdir), { recursive: true });
    } else if (op === 'ENV') {
      const [, k, v] = /^(\S+?)[= ](.*)$/.exec(args);
      image.env[k] = v;
    } else if (op === 'COPY') {
      const { flags, sources, dest } = parseCopy(args);
      // From another stage: its folder; the build stage is this tree as `npm run build` leaves it.
      const originOf = (source) =>
        !flags.from
          ? join(ROOT, source)
          : flags.from === 'build'
          ? join(ROOT, source.replace(/^\/app\/?/, ''))
          : join(stageRoots[flags.from], source);
      for (const source of sources) {
        const origin = originOf(source);
        if (!existsSync(origin)) throw new Error(`COPY ${args}: ${origin} is missing (run npm run build first)`);
        const target = dest.endsWith('/') || sources.length > 1
          ? join(inside(dest), source.split('/').at(-1))
          : inside(dest);
        cpSync(origin, target, { recursive: true, dereference: false });
      }
    } else if (op === 'RUN') {
      // BuildKit mounts (a cache) change nothing inside the image; absolute paths point into this stage.
      const command = args.replace(/--mount=\S+\s*/g, '').replace(/(^|[\s=])\/(app|data)\b/g, `$1${fsRoot}/$2`);
      say(`[${stage.name}] RUN ${command.replaceAll(fsRoot, '')}`);
      execFileSync('sh', ['-c', command], {
        cwd: inside(image.workdir),
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, ...image.env },
      });
    } else if (op === 'USER') {
      image.user = args;
    } else if (op === 'ENTRYPOINT' || op === 'CMD') {
      image[op.toLowerCase()] = JSON.parse(args);
    } else if (op === 'VOLUME') {
      image.volumes.push(args);
    } else if (op !== 'EXPOSE') {
      throw new Error(
        `${op} is not something this check can run: keep the runtime stages to the instructions it knows`,
      );
    }
  }
  return image;
}

/** Starts `ENTRYPOINT args` in the runtime folder as the image's USER; resolves once it logged `started`. */
function startContainer(appRoot, image, args, env, label) {
  const [uid, gid] = (image.user ?? '0:0').split(':');
  const command = [...image.entrypoint, ...args];
  const child = spawn('setpriv', [`--reuid=${uid}`, `--regid=${gid ?? uid}`, '--clear-groups', '--', ...command], {
    cwd: join(appRoot, image.workdir),
    env: { PATH: process.env.PATH, HOME: '/tmp', ...image.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = [];
  const output = [];
  const ready = new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`${label}: not started within ${START_TIMEOUT_MS} ms\n${output.slice(-20).join('\n')}`)),
      START_TIMEOUT_MS,
    );
    createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      logs.push(entry);
      if (entry.msg === 'started') {
        clearTimeout(timer);
        done();
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`${label}: exited (${signal ?? code}) before it started:\n${output.slice(-20).join('\n')}`));
    });
  });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done(signal ?? code)));
  return {
    label,
    logs,
    ready,
    grpcAddress: () => logs.find((l) => l.msg === 'grpc server listening')?.address,
    gatewayUrl: () => logs.find((l) => l.msg === 'gateway listening')?.url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const how = await exited;
      clearTimeout(timer);
      return how;
    },
  };
}

async function waitForHealthyApi(url, label) {
  const auth = `Basic ${Buffer.from(`${SANDBOX.tokenId}:${SANDBOX.secret}`).toString('base64')}`;
  const until = Date.now() + START_TIMEOUT_MS;
  let last = '';
  while (Date.now() < until) {
    try {
      const ready = await fetch(`${url}/readyz`);
      const customers = await fetch(`${url}/2025-10-13/customers`, { headers: { authorization: auth } });
      if (ready.status === 200 && customers.status === 200) return say(`${label}: /readyz 200, GET /customers 200`);
      last = `/readyz ${ready.status} ${await ready.text()}, /customers ${customers.status}`;
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${label}: not healthy within ${START_TIMEOUT_MS} ms (${last})`);
}

/** A free port on loopback (the components bind fixed addresses, as in a pod). */
async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

async function checkAllInOne(appRoot, image) {
  const port = await freePort();
  const all = startContainer(appRoot, image, image.cmd, {
    PORT: String(port),
    HOST: '127.0.0.1',
    SANDBOX_API_TOKEN_ID: SANDBOX.tokenId,
    SANDBOX_API_CLIENT_SECRET: SANDBOX.secret,
  }, 'all');
  try {
    await all.ready;
    await waitForHealthyApi(`http://127.0.0.1:${port}`, 'all (default CMD, embedded store in /app/data)');
  } finally {
    const how = await all.stop();
    if (how !== 0) throw new Error(`all: stopped with ${how} after SIGTERM, not 0`);
  }
}

async function checkSeparateComponents(appRoot, image, brokers) {
  const token = 'image-check-internal-token-0123456789';
  const addresses = {};
  for (const name of SERVICES) addresses[ADDRESS_VARS[name]] = `127.0.0.1:${await freePort()}`;
  const started = [];
  try {
    for (const name of SERVICES) {
      const dataDir = join(appRoot, 'app', 'data', name);
      mkdirSync(dataDir, { recursive: true });
      chownSync(dataDir, ...image.user.split(':').map(Number));
      const service = startContainer(appRoot, image, [name], {
        ...addresses,
        GRPC_ADDRESS: addresses[ADDRESS_VARS[name]],
        INTERNAL_TOKEN: token,
        KAFKA_BROKERS: brokers,
        DATA_DIR: dataDir,
      }, name);
      started.push(service);
    }
    const port = await freePort();
    const gateway = startContainer(appRoot, image, ['gateway'], {
      ...addresses,
      INTERNAL_TOKEN: token,
      PORT: String(port),
      HOST: '127.0.0.1',
      SANDBOX_API_TOKEN_ID: SANDBOX.tokenId,
      SANDBOX_API_CLIENT_SECRET: SANDBOX.secret,
    }, 'gateway');
    started.push(gateway);
    await Promise.all(started.map((s) => s.ready));
    await waitForHealthyApi(
      `http://127.0.0.1:${port}`,
      'gateway + auth, accounts, quotes-transactions, notifications as separate processes',
    );
  } finally {
    const results = await Promise.all(started.map(async (s) => [s.label, await s.stop()]));
    const unclean = results.filter(([, how]) => how !== 0);
    if (unclean.length) {
      throw new Error(`not a clean stop on SIGTERM: ${unclean.map(([l, h]) => `${l} ${h}`).join(', ')}`);
    }
  }
}

async function main() {
  const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  const runtime = stages.at(-1);
  const scratch = mkdtempSync(join(tmpdir(), 'grid-image-'));
  chmodSync(scratch, 0o755);
  say(`scratch ${scratch}`);
  try {
    const roots = {};
    let image;
    for (const stage of stages) {
      if (stage.name === 'build') continue; // this tree, built
      roots[stage.name] = join(scratch, stage.name);
      mkdirSync(roots[stage.name], { recursive: true, mode: 0o755 });
      image = runStage(stage, roots[stage.name], roots);
    }
    const appRoot = roots[runtime.name];
    if (!image.user || image.user.startsWith('0')) {
      throw new Error('the runtime stage does not switch to a non-root USER');
    }
    say(
      `runtime: USER ${image.user}, ENTRYPOINT ${JSON.stringify(image.entrypoint)}, CMD ${JSON.stringify(image.cmd)}`,
    );
    // Production-only tree: nothing missing or extraneous against the lock file.
    execFileSync('npm', ['ls', '--omit=dev', '--all', '--silent'], {
      cwd: join(appRoot, 'app'),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    say('npm ls --omit=dev: the production tree is complete');
    await checkAllInOne(appRoot, image);
    const brokers = process.env.KAFKA_BROKERS?.trim();
    if (brokers) await checkSeparateComponents(appRoot, image, brokers);
    else say('KAFKA_BROKERS unset: separate components not checked');
    say('image OK');
  } finally {
    if (!process.env.KEEP_SCRATCH) rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`check-image: FAILED: ${err.message}\n`);
  process.exit(1);
});
