import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The "add a webhook type" recipe (docs/contributing.md) as a check: every webhook type we send
 * (lib/contract/webhook-types.ts) belongs to a kind of the contract (its body schema), is one the
 * notifications service records, is emitted by some service's source, and is in docs/webhooks.md's
 * table under the same kind.
 */
export interface WebhookWiring {
  types: readonly string[];
  /** The contract's kind of a type (gateway/contract/webhook-kinds.ts), by name. */
  kindOf: (type: string) => string | undefined;
  /** Whether the notifications service records a webhook of the type. */
  recorded: (type: string) => boolean;
  /** Whether a service's source emits an event of the type (see emittedBy). */
  emitted: (type: string) => boolean;
  /** The kind each type is documented under (see documentedKinds). */
  documented: ReadonlyMap<string, string>;
  /** Types no service emits yet, each with its reason. */
  notEmitted?: Readonly<Record<string, string>>;
}

/** One line per missing step, naming the type and the step. */
export function webhookProblems(w: WebhookWiring): string[] {
  return w.types.flatMap((type) => {
    const problems: string[] = [];
    const kind = w.kindOf(type);
    if (!kind) problems.push(`${type}: in no webhook kind of the contract (gateway/contract/webhook-kinds.ts)`);
    if (!w.recorded(type)) problems.push(`${type}: not recorded by the notifications service`);
    const notEmitted = Object.hasOwn(w.notEmitted ?? {}, type);
    if (!w.emitted(type) && !notEmitted) problems.push(`${type}: emitted by no service`);
    if (w.emitted(type) && notEmitted) problems.push(`${type}: listed as not emitted, but a service emits it`);
    const documented = w.documented.get(type);
    if (!documented) problems.push(`${type}: not in docs/webhooks.md's tables`);
    else if (kind && documented !== kind) {
      problems.push(`${type}: docs/webhooks.md lists it under ${documented}, the contract under ${kind}`);
    }
    return problems;
  });
}

/**
 * The types each kind row of a markdown table lists: `| \`kind\` | \`A.B\`, \`.C\` | ... |` (a `.C`
 * continues the type before it: `A.C`).
 */
export function documentedKinds(markdown: string): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const kind = /^`([a-z-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!kind || cells.length < 4) continue;
    let prefix = '';
    for (const [, code] of cells[2].matchAll(/`([A-Z_.]+)`/g)) {
      const type = code.startsWith('.') ? `${prefix}${code}` : code;
      prefix = type.includes('.') ? type.slice(0, type.indexOf('.')) : type;
      kinds.set(type, kind);
    }
  }
  return kinds;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Whether a type is emitted: some source file under `dirs` (tests and the `lists` naming every type
 * aside) writes it as a string literal (`'CARD.STATE_CHANGE'`), or as a template it fills
 * (`` `CARD_TRANSACTION.${status}` ``, `` `${kind}.REFUND_FAILED` ``).
 */
export function emittedBy(root: string, dirs: readonly string[], lists: readonly string[]): (type: string) => boolean {
  const literals = new Set<string>();
  const templates: RegExp[] = [];
  const skipped = new Set(lists);
  for (const file of dirs.flatMap((dir) => sourceFiles(join(root, dir)))) {
    if (skipped.has(relative(root, file))) continue;
    const source = readFileSync(file, 'utf8');
    for (const [, text] of source.matchAll(/'([A-Z_]+(?:\.[A-Z_]+)?)'/g)) literals.add(text);
    for (const [, text] of source.matchAll(/`([A-Z_.]*\$\{[^`]*)`/g)) {
      const parts = text.split(/\$\{[^}]*\}/);
      // A fixed part with a dot and a name (`.REFUND_FAILED`): `${a}.${b}` would match any type.
      if (!parts.some((p) => /[A-Z]/.test(p)) || !parts.some((p) => p.includes('.'))) continue;
      if (parts.some((p) => /[^A-Z_.]/.test(p))) continue;
      templates.push(new RegExp(`^${parts.map((p) => p.replace(/\./g, '\\.')).join('[A-Z_]+')}$`));
    }
  }
  return (type) => literals.has(type) || templates.some((t) => t.test(type));
}
