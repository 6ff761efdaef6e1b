import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { docFiles } from './doc-examples';

/**
 * Every relative link of README.md and docs/**.md reaches a file of the repository, and every
 * `#anchor` a heading of the file it names (GitHub's slugs: lower case, punctuation dropped,
 * spaces to hyphens, repeated headings numbered).
 */
const ROOT = join(__dirname, '..', '..');

export function slugsOf(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1].toLowerCase().replace(/<[^>]*>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(
      /\s/g,
      '-',
    );
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n ? `${base}-${n}` : base);
  }
  return slugs;
}

function linksOf(markdown: string): Array<{ target: string; line: number }> {
  const links: Array<{ target: string; line: number }> = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    const code = text.replace(/`[^`]*`/g, '');
    for (const m of code.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: m[1], line: i + 1 });
  });
  return links;
}

test('every relative link and anchor in the docs leads somewhere', () => {
  const broken: string[] = [];
  for (const file of docFiles(ROOT)) {
    const markdown = readFileSync(join(ROOT, file), 'utf8');
    for (const { target, line } of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      const resolved = path ? normalize(join(dirname(join(ROOT, file)), decodeURIComponent(path))) : join(ROOT, file);
      if (!existsSync(resolved)) {
        broken.push(`${file}:${line}: ${target}: no such file`);
        continue;
      }
      if (
        anchor && resolved.endsWith('.md') && statSync(resolved).isFile()
        && !slugsOf(readFileSync(resolved, 'utf8')).has(anchor)
      ) {
        broken.push(`${file}:${line}: ${target}: no heading #${anchor}`);
      }
    }
  }
  expect(broken).toEqual([]);
});

test('slugs follow GitHub: punctuation dropped, repeated headings numbered', () => {
  expect([...slugsOf('# A first payment with `curl`\n## Retries\n## Retries\n## Event topics: provisioning')])
    .toEqual(['a-first-payment-with-curl', 'retries', 'retries-1', 'event-topics-provisioning']);
});
