import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import type { CapacityInputs } from './capacity-model';
import { capacitySections } from './capacity-tables';

/**
 * `npm run capacity`: the capacity model (docs/capacity.md) from docs/capacity-inputs.json, printed.
 * `npm run capacity -- FILE.json`: from another inputs file, or from the last line of `npm run bench -- writes`.
 * `npm run capacity -- measure`: runs `npm run bench -- writes`, saves its figures with the date, the machine and
 * its load as docs/capacity-inputs.json, and rewrites the model's tables in docs/capacity.md.
 * `--update-docs`: rewrite docs/capacity.md's tables from the inputs without measuring.
 */
// The repository root, whether this runs from bench/ (jest) or dist/bench/ (npm run capacity).
const ROOT = [resolve(__dirname, '..'), resolve(__dirname, '../..')]
  .find((dir) => existsSync(join(dir, 'docs/capacity.md'))) ?? resolve(__dirname, '../..');
export const INPUTS = join(ROOT, 'docs/capacity-inputs.json');
export const DOC = join(ROOT, 'docs/capacity.md');
const COMMAND = 'npm run capacity -- measure';

const SECTION = /<!-- generated: ([\w-]+) -->([\s\S]*?)<!-- \/generated -->/g;

/** The markdown with each of `sections` written anew between its markers (test/docs/generated-sections.ts). */
export function rewriteSections(markdown: string, sections: Record<string, string>): string {
  return markdown.replace(SECTION, (whole, name: string) => {
    const body = sections[name];
    if (body === undefined) return whole;
    return `<!-- generated: ${name} -->${body.includes('\n') ? `\n${body}` : body}<!-- /generated -->`;
  });
}

export const readInputs = (file = INPUTS): CapacityInputs => JSON.parse(readFileSync(file, 'utf8')) as CapacityInputs;

function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim().replace(/\s+/g, ' ');
  } catch {
    return 'unknown';
  }
}

type BenchFigures = CapacityInputs['paymentWrites'] & { serviceProcesses: { skipped?: string } };

/** Runs what `npm run bench -- writes` runs, its output passed through (to stderr); answers its `paymentWrites`. */
function benchWrites(): Promise<CapacityInputs['paymentWrites']> {
  return new Promise((done, fail) => {
    const script = join(__dirname, 'run-benchmarks.js');
    const child = spawn(process.execPath, [script, 'writes'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      process.stderr.write(chunk);
    });
    child.once('exit', (code) => {
      if (code !== 0) return fail(new Error(`npm run bench -- writes exited with ${code}`));
      const last = out.trim().split('\n').pop() ?? '';
      const figures = (JSON.parse(last) as { paymentWrites: BenchFigures }).paymentWrites;
      const skipped = figures.serviceProcesses?.skipped;
      if (skipped) return fail(new Error(`the separate processes were not measured: ${skipped}`));
      done(figures);
    });
  });
}

async function measure(): Promise<CapacityInputs> {
  const uptimeBefore = uptime();
  const paymentWrites = await benchWrites();
  const cpu = cpus();
  const inputs: CapacityInputs = {
    command: COMMAND,
    measuredAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: {
      description: process.env.CAPACITY_MACHINE ?? `${cpu.length}-core build machine, shared/noisy`,
      cpus: cpu.length,
      cpuModel: cpu[0]?.model.trim() ?? 'unknown',
      node: process.version,
      uptimeBefore,
      uptimeAfter: uptime(),
    },
    paymentWrites,
  };
  writeFileSync(INPUTS, `${JSON.stringify(inputs, null, 2)}\n`);
  return inputs;
}

function updateDocs(inputs: CapacityInputs): void {
  writeFileSync(DOC, rewriteSections(readFileSync(DOC, 'utf8'), capacitySections(inputs)));
}

const UNRECORDED: Omit<CapacityInputs, 'paymentWrites'> = {
  command: 'npm run bench -- writes',
  measuredAt: 'unknown',
  machine: {
    description: 'unrecorded machine',
    cpus: 0,
    cpuModel: 'unknown',
    node: 'unknown',
    uptimeBefore: 'unknown',
    uptimeAfter: 'unknown',
  },
};

async function main(args: string[]): Promise<void> {
  const measuring = args.includes('measure');
  const file = args.find((a) => a.endsWith('.json'));
  let inputs = measuring ? await measure() : readInputs(file ? resolve(file) : INPUTS);
  // A bench's own output line (`{"paymentWrites": ...}`) stands for inputs with no machine recorded.
  if (!inputs.machine) inputs = { ...UNRECORDED, paymentWrites: inputs.paymentWrites };
  if (measuring || args.includes('--update-docs')) updateDocs(inputs);
  for (const [name, body] of Object.entries(capacitySections(inputs))) console.log(`## ${name}\n\n${body}`);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
