import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Starts librdkafka's mock cluster (a real Kafka wire protocol, one broker) for tests. On a fresh
 * machine it installs librdkafka-dev with apt-get and compiles `mock-cluster.c` into the gitignored
 * `.tools/` folder first, so `npm test` needs no manual step. Topics are `name` or `name:partitions`.
 */
export interface KafkaMockCluster {
  brokers: string[];
  /**
   * SIGSTOP: the broker keeps its connections but answers nothing (a stalled broker). Resolves once every thread
   * stopped.
   */
  freeze(): Promise<void>;
  /** SIGCONT after freeze(). */
  thaw(): void;
  /**
   * The broker goes down (connections closed, new ones refused) and keeps its data, as a killed broker with its log.
   */
  kill(): Promise<void>;
  /** The broker after kill() comes back on the same address. */
  restart(): Promise<void>;
  /**
   * Every consumer group a client joined or committed for so far (only with `trackGroups`: the mock has no ListGroups).
   */
  groups(): Promise<string[]>;
  stop(): Promise<void>;
}

const HEADER = '/usr/include/librdkafka/rdkafka_mock.h';
// The repository root, whether this runs from test/kafka-mock (jest) or dist/test/kafka-mock (the benchmark).
const ROOT =
  [resolve(__dirname, '../..'), resolve(__dirname, '../../..')].find((dir) =>
    existsSync(join(dir, 'test/kafka-mock/mock-cluster.c'))
  ) ?? resolve(__dirname, '../..');
const SOURCE = join(ROOT, 'test/kafka-mock/mock-cluster.c');
const TOOLS = join(ROOT, '.tools');
const BINARY = join(TOOLS, 'kafka-mock-cluster');
const INSTALL_TIMEOUT_MS = 10 * 60_000;
const START_TIMEOUT_MS = 15_000;

let prepared: Promise<string> | undefined;

export async function startKafkaMockCluster(
  topics: string[],
  options: { trackGroups?: boolean } = {},
): Promise<KafkaMockCluster> {
  const binary = await (prepared ??= prepareBinary().catch((err) => {
    prepared = undefined; // let a later call try again
    throw err;
  }));
  return launch(binary, topics, options.trackGroups ?? false);
}

async function prepareBinary(): Promise<string> {
  if (!existsSync(HEADER)) await installLibrdkafka();
  if (!existsSync(BINARY) || statSync(BINARY).mtimeMs < statSync(SOURCE).mtimeMs) await compile();
  return BINARY;
}

async function installLibrdkafka(): Promise<void> {
  if (process.getuid?.() !== 0) {
    throw new Error(
      `kafka mock: ${HEADER} is missing and this process is not root; run "apt-get install -y librdkafka-dev"`,
    );
  }
  mkdirSync(TOOLS, { recursive: true });
  // flock: parallel jest workers install once; the apt lock timeout covers other apt users of the machine.
  const apt = 'apt-get -o DPkg::Lock::Timeout=300';
  const script = `test -e ${HEADER} || { ${apt} update || echo "apt-get update failed; trying the install anyway" >&2; `
    + `${apt} install -y --no-install-recommends librdkafka-dev; }`;
  await run('flock', [join(TOOLS, 'apt.lock'), 'sh', '-c', script], 'apt-get install librdkafka-dev');
  if (!existsSync(HEADER)) throw new Error(`kafka mock: librdkafka-dev installed but ${HEADER} is still missing`);
}

async function compile(): Promise<void> {
  mkdirSync(TOOLS, { recursive: true });
  // Compile to a private name and rename, so parallel jest workers never run a half-written file.
  const tmp = `${BINARY}.${process.pid}.tmp`;
  try {
    await run('gcc', ['-O1', '-Wall', '-o', tmp, SOURCE, '-lrdkafka'], 'gcc mock-cluster.c');
    renameSync(tmp, BINARY);
  } finally {
    rmSync(tmp, { force: true });
  }
}

function run(command: string, args: string[], what: string): Promise<void> {
  return new Promise((done, fail) => {
    execFile(
      command,
      args,
      {
        timeout: INSTALL_TIMEOUT_MS,
        maxBuffer: 32 * 1024 * 1024,
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
      (err, _stdout, stderr) => {
        if (!err) return done();
        const tail = String(stderr).trim().split('\n').slice(-15).join('\n');
        fail(new Error(`kafka mock: ${what} failed (${err.message.split('\n')[0]})\n${tail}`, { cause: err }));
      },
    );
  });
}

function launch(binary: string, topics: string[], trackGroups: boolean): Promise<KafkaMockCluster> {
  const env = trackGroups ? { ...process.env, KAFKA_MOCK_TRACK_GROUPS: '1' } : process.env;
  const child = spawn(binary, topics, { stdio: ['pipe', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));

  return new Promise((done, fail) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`kafka mock: no bootstrap address within ${START_TIMEOUT_MS} ms\n${stderr}`));
    }, START_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      fail(new Error(`kafka mock: cannot start ${binary}: ${err.message}`, { cause: err }));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`kafka mock: exited before ready (code ${code}, signal ${signal})\n${stderr}`));
    });
    const answers: Array<(line: string) => void> = [];
    const ask = (what: string) =>
      new Promise<string>((ok, bad) => {
        answers.push((line) => (line === `ok ${what}` || line.startsWith(`ok ${what} `)
          ? ok(line.slice(`ok ${what}`.length).trim())
          : bad(new Error(`kafka mock: ${what} answered "${line}"`)))
        );
        child.stdin!.write(`${what}\n`);
      });
    const command = async (what: string) => {
      await ask(what);
    };
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.on('line', (answer) => answers.shift()?.(answer.trim()));
      const brokers = line.trim().split(',').filter(Boolean);
      if (!brokers.length) {
        child.kill('SIGKILL');
        return fail(new Error(`kafka mock: unexpected first line "${line}"`));
      }
      done({
        brokers,
        freeze: async () => {
          child.kill('SIGSTOP');
          await everyThreadStopped(child.pid!);
        },
        thaw: () => void child.kill('SIGCONT'),
        kill: () => command('down'),
        restart: () => command('up'),
        groups: async () => {
          if (!trackGroups) throw new Error('kafka mock: started without trackGroups');
          return (await ask('groups')).split(' ').filter(Boolean);
        },
        stop: () => {
          child.kill('SIGCONT');
          return stopChild(child, exited);
        },
      });
    });
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin!.end(); // the program exits when its stdin closes
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** kill() returns before the signal stopped each thread: a request sent at once could still be answered. */
async function everyThreadStopped(pid: number): Promise<void> {
  const state = (task: string) => /\)\s+(\S)/.exec(readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8'))?.[1];
  for (let attempt = 0; attempt < 400; attempt++) {
    if (readdirSync(`/proc/${pid}/task`).every((task) => state(task) === 'T')) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`kafka mock: pid ${pid} did not stop after SIGSTOP`);
}
