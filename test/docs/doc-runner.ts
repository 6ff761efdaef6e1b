import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shapeMismatch, type DocBlock, type DocCommand } from './doc-examples';

/** The variables every example may use (docs/README.md "Running the examples"). */
export function exampleVariables(port: number): Record<string, string> {
  const [tokenId, secret] = SANDBOX_CREDENTIALS.split(':');
  const api = `http://localhost:${port}/2025-10-13`;
  return {
    AUTH: SANDBOX_CREDENTIALS,
    API: api,
    BASE: api,
    TOKEN_ID: tokenId,
    SECRET: secret,
    ID: tokenId,
    CLIENT_ID: tokenId,
    CLIENT_SECRET: secret,
  };
}

export const SANDBOX_CREDENTIALS = 'sandbox-token:sandbox-secret-0000000000';

/** What the doc says, on the test's ports: the gateway's 8080 and the example webhook receiver's 4000. */
export function onTestPorts(code: string, ports: { gateway: number; receiver: number }): string {
  return code
    .replace(/(localhost|127\.0\.0\.1):8080/g, `$1:${ports.gateway}`)
    .replace(/(localhost|127\.0\.0\.1):4000/g, `$1:${ports.receiver}`)
    .replace(/listen\(4000\b/g, `listen(${ports.receiver}`);
}

/**
 * Every curl goes through this: it logs the command, the status and the body, and stops the
 * examples on a status that is neither 2xx nor the one the doc shows for the command (a command's
 * shown status is the answer of its last curl; the test checks that afterwards).
 */
const PRELUDE = `
set -euo pipefail
__doc_at() { __DOC_LINE=$1; __DOC_STATUS=$2; }
__DOC_LINE=-1; __DOC_STATUS=
curl() {
  local body status rc=0
  body=$(mktemp "$__DOC_DIR/body.XXXXXX")
  status=$(command curl -sS --max-time 30 "$@" -o "$body" -w '%{http_code}') || rc=$?
  cat "$body"
  printf '%s\\t%s\\t%s\\t%s\\n' "$__DOC_LINE" "$status" "$body" "$rc" >> "$__DOC_DIR/calls.log"
  case "$status" in 2??|"$__DOC_STATUS") ;; *) exit 97 ;; esac
  return $rc
}
`;

export interface Call {
  index: number;
  status: number;
  body: string;
  curlExit: number;
}
export interface FileRun {
  exitCode: number;
  stderr: string;
  calls: Call[];
}

/** Runs the blocks in one bash, in order, in a scratch directory; answers what each curl got. */
export interface PlacedCommand extends DocCommand {
  file: string;
}

/** The commands of these blocks, in order, each with its file. */
export function commandsOf(blocks: DocBlock[]): PlacedCommand[] {
  return blocks.flatMap((b) => b.commands.map((c) => ({ ...c, file: b.file })));
}

export async function runCommands(
  commands: PlacedCommand[],
  options: { ports: { gateway: number; receiver: number }; timeoutMs: number },
): Promise<FileRun> {
  const dir = mkdtempSync(join(tmpdir(), 'doc-test-'));
  try {
    const script = [PRELUDE];
    const docLines: string[] = PRELUDE.split('\n').map(() => "the test's prelude");
    for (const [index, command] of commands.entries()) {
      script.push(`__doc_at ${index} '${command.expected.status ?? ''}'`);
      const text = onTestPorts(command.text, options.ports);
      script.push(text);
      docLines.push(
        `${command.file}:${command.line}`,
        ...text.split('\n').map((_, k) => `${command.file}:${command.line + k}`),
      );
    }
    script.push('__doc_at -1 ""; wait 2>/dev/null || true');
    writeFileSync(join(dir, 'examples.sh'), script.join('\n'));
    const env = { PATH: process.env.PATH ?? '', HOME: dir, __DOC_DIR: dir, ...exampleVariables(options.ports.gateway) };
    const { exitCode, stderr } = await new Promise<{ exitCode: number; stderr: string }>((resolve) => {
      const child = spawn('bash', ['examples.sh'], {
        cwd: dir,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString('utf8');
      });
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch { /* gone */ }
      }, options.timeoutMs);
      let exitCode = 1;
      // a receiver the examples left running (they stopped early) would hold the pipes open: end the group
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        exitCode = code ?? (signal ? 124 : 1);
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch { /* every child already gone */ }
      });
      child.on('close', () => resolve({ exitCode, stderr: err }));
    });
    const log = existsSync(join(dir, 'calls.log')) ? readFileSync(join(dir, 'calls.log'), 'utf8') : '';
    const calls = log.split('\n').filter(Boolean).map((row) => {
      const [index, status, bodyFile, curlExit] = row.split('\t');
      return {
        index: Number(index),
        status: Number(status),
        body: existsSync(bodyFile) ? readFileSync(bodyFile, 'utf8') : '',
        curlExit: Number(curlExit),
      };
    });
    // bash names its own script's lines: say the doc's instead
    const docStderr = stderr.replace(
      /examples\.sh: line (\d+)/g,
      (_m, n: string) => `${docLines[Number(n) - 1] ?? '?'}`,
    );
    return { exitCode, stderr: docStderr, calls };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const excerpt = (text: string, n = 400) => (text.length > n ? `${text.slice(0, n)}…` : text).trim();

function jsonOf(body: string): unknown {
  const start = body.search(/[{[]/);
  if (start < 0) return undefined;
  try {
    return JSON.parse(body.slice(start));
  } catch {
    return undefined;
  }
}

/** Every way the run differs from the doc, each naming the file, line and command. */
export function runProblems(
  commands: PlacedCommand[],
  run: FileRun,
  ports: { gateway: number; receiver: number },
): string[] {
  const rewrite = (text: string) => onTestPorts(text, ports);
  const problems: string[] = [];
  const where = (index: number) => {
    const c = commands[index];
    return c ? `${c.file}:${c.line}: \`${excerpt(c.text, 200)}\`` : 'none';
  };
  for (const c of commands) if (c.expected.unreadable) problems.push(`${c.file}:${c.line}: ${c.expected.unreadable}`);
  const lastCall = new Map<number, Call>();
  for (const call of run.calls) lastCall.set(call.index, call);
  const answered = (call: Call, status?: number) =>
    `answered ${call.status} ${excerpt(call.body)}; the doc shows ${status ?? 'a 2xx answer'}`;
  for (const call of run.calls) {
    const expected = commands[call.index]?.expected ?? {};
    if (call.curlExit !== 0 && call.status === 0) {
      problems.push(`${where(call.index)} could not connect (curl exit ${call.curlExit})`);
      break;
    }
    const last = lastCall.get(call.index) === call;
    const ok = last && expected.status
      ? call.status === expected.status
      : (call.status >= 200 && call.status < 300) || call.status === expected.status;
    if (!ok) {
      problems.push(
        `${where(call.index)} ${answered(call, last ? expected.status : undefined)}${
          expected.shown ? ` (# ${expected.shown})` : ''
        }`,
      );
      break;
    }
  }
  for (const [index, call] of lastCall) {
    const expected = commands[index]?.expected ?? {};
    if (expected.status ? call.status !== expected.status : call.status < 200 || call.status >= 300) continue;
    const body = jsonOf(call.body) as { code?: string } | undefined;
    if (expected.code && body?.code !== expected.code) {
      problems.push(`${where(index)} answered code ${body?.code}; the doc shows ${expected.code}`);
    }
    if (expected.shape) {
      const mismatch = body === undefined
        ? 'the answer is not JSON'
        : shapeMismatch(expected.shape, body, '$', rewrite);
      if (mismatch) {
        problems.push(
          `${where(index)} answered ${
            excerpt(call.body)
          }; it does not fit what the doc shows (# ${expected.shown}): ${mismatch}`,
        );
      }
    }
  }
  if (run.exitCode !== 0 && !problems.length) {
    const last = run.calls.length ? run.calls[run.calls.length - 1].index : -1;
    problems.push(
      `the examples stopped with exit code ${run.exitCode}${run.exitCode === 124 ? ' (timed out)' : ''}: ${
        excerpt(run.stderr, 800)
      } (the last curl run: ${where(last)})`,
    );
  }
  return problems;
}
