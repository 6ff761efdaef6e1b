import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPERATIONS } from '../../gateway/contract/operation-registry';
import { REFERENCE_OPENAPI } from '../shared-reference.cjs';
import { capacitySections } from '../../bench/capacity-tables';
import { readInputs } from '../../bench/capacity';
import { currencySections } from './currency-sections';

/**
 * The parts of the docs that are facts about the contract's registry compared with the reference
 * OpenAPI, docs/capacity.md's model from the saved benchmark figures, and the currency lists: written between
 * `<!-- generated: NAME -->` and `<!-- /generated -->`, checked by generated-sections.test.ts and rewritten by it with
 * UPDATE_DOCS=1.
 */

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;

export function referenceOperations(): Set<string> {
  const document = parse(readFileSync(REFERENCE_OPENAPI, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  return new Set(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => keyOf(m, path))
    ),
  );
}

/** Our operations the reference does not define, as `METHOD /path` (root ones marked). */
export function addedOperations(): string[] {
  const reference = referenceOperations();
  return OPERATIONS.filter((op) => !reference.has(keyOf(op.method, op.path)))
    .map((op) => `\`${op.method.toUpperCase()} ${op.path}\`${op.root ? ' (at the server root)' : ''}`);
}

export function generatedSections(): Record<string, string> {
  const added = addedOperations();
  return {
    'operation-count': String(OPERATIONS.length),
    'added-operations': `${added.length} operations the reference does not define:\n\n${
      added.map((a) => `- ${a}`).join('\n')
    }\n`,
    // docs/capacity.md: the capacity model from the saved benchmark figures (`npm run capacity`).
    ...capacitySections(readInputs()),
    // docs/exchange-rates.md: the currency lists from the currency table and the recorded ECB document.
    ...currencySections(),
  };
}

const SECTION = /<!-- generated: ([\w-]+) -->([\s\S]*?)<!-- \/generated -->/g;

/** The markdown with each generated section written anew; unknown names are left as they are. */
export function regenerate(markdown: string, sections = generatedSections()): string {
  return markdown.replace(SECTION, (whole, name: string) => {
    const body = sections[name];
    if (body === undefined) return whole;
    return `<!-- generated: ${name} -->${body.includes('\n') ? `\n${body}` : body}<!-- /generated -->`;
  });
}

export const sectionNames = (markdown: string): string[] => [...markdown.matchAll(SECTION)].map((m) => m[1]);
