import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrapComments } from '../../scripts/wrap-comments.cjs';

const ROOT = join(__dirname, '..', '..');
const LONG = 'words that run on past the width '.repeat(3).trim();

// A width of 60 keeps the expected texts short; the formatter wraps at dprint.json's lineWidth (120).
describe('wrapComments', () => {
  test('a comment line past the width breaks at a space and its end opens the next line of the paragraph', () => {
    const text = `function f() {\n  // ${LONG}.\n  // The next line.\n  return 1;\n}\n`;
    expect(wrapComments('f.ts', text, 60)).toBe(
      'function f() {\n'
        + '  // words that run on past the width words that run on past\n'
        + '  // the width words that run on past the width. The next\n'
        + '  // line.\n'
        + '  return 1;\n}\n',
    );
  });

  test('a comment after code moves above its line; a long one-line JSDoc becomes a block', () => {
    const text = `/** ${LONG}. */\nexport const a = 1; // ${LONG}\n`;
    expect(wrapComments('a.ts', text, 60)).toBe(
      '/**\n'
        + ' * words that run on past the width words that run on past\n'
        + ' * the width words that run on past the width.\n'
        + ' */\n'
        + '// words that run on past the width words that run on past\n'
        + '// the width words that run on past the width\n'
        + 'export const a = 1;\n',
    );
  });

  test('strings, templates, directives and a word wider than the line are left as they are', () => {
    const text = [
      `const s = \`${LONG} // ${LONG}\`;`,
      `const t = 'x'; const u = \`a\nb\`; // ${LONG}`,
      `// @ts-expect-error ${LONG}`,
      `// https://example.com/${'a'.repeat(130)}`,
      '',
    ].join('\n');
    expect(wrapComments('s.ts', text, 60)).toBe(text);
  });
});

describe('npm run format:check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'format-check-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('names an unformatted file and the command that formats it (exit 1); once formatted it passes (exit 0)', () => {
    const file = join(dir, 'sample.ts');
    writeFileSync(file, `export const value = {a:1, b:"two"}\n`);
    const check = () =>
      spawnSync(process.execPath, ['scripts/format.cjs', '--check', file], { cwd: ROOT, encoding: 'utf8' });
    const unformatted = check();
    expect(unformatted.status).toBe(1);
    expect(unformatted.stderr).toContain('sample.ts');
    expect(unformatted.stderr).toContain('Run `npm run format` to format them.');

    const format = spawnSync(process.execPath, ['scripts/format.cjs', file], { cwd: ROOT, encoding: 'utf8' });
    expect(format.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`export const value = { a: 1, b: 'two' };\n`);
    expect(check().status).toBe(0);
  });

  test('names each line past 120 characters, in a file of any kind, as FILE:LINE (exit 1); Markdown is exempt', () => {
    const script = join(dir, 'long.sh');
    const notes = join(dir, 'notes.md');
    writeFileSync(script, `echo short\necho ${'x'.repeat(120)}\n`);
    writeFileSync(notes, `| ${'a table row '.repeat(20)}|\n`);
    const check = () =>
      spawnSync(process.execPath, ['scripts/format.cjs', '--check', script, notes], { cwd: ROOT, encoding: 'utf8' });
    const long = check();
    expect(long.status).toBe(1);
    expect(long.stderr).toContain('long.sh:2 (125 characters)');
    expect(long.stderr).not.toContain('long.sh:1');
    expect(long.stderr).not.toContain('notes.md');

    writeFileSync(script, `echo short\necho ${'x'.repeat(60)} \\\n  ${'x'.repeat(60)}\n`);
    expect(check().status).toBe(0);
  });
});
