import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docFiles } from './doc-examples';
import { addedOperations, generatedSections, regenerate, sectionNames } from './generated-sections';

/** The operation count and the operations we add come from the registry: the docs say what it holds. */
const ROOT = join(__dirname, '..', '..');
const files = docFiles(ROOT);

test('every generated section of the docs matches the registry (UPDATE_DOCS=1 rewrites them)', () => {
  const stale: string[] = [];
  for (const file of files) {
    const markdown = readFileSync(join(ROOT, file), 'utf8');
    const fresh = regenerate(markdown);
    if (fresh === markdown) continue;
    if (process.env.UPDATE_DOCS) writeFileSync(join(ROOT, file), fresh);
    else {stale.push(
        `${file}: a generated section differs from the registry; run `
          + 'UPDATE_DOCS=1 npx jest test/docs/generated-sections.test.ts',
      );}
  }
  expect(stale).toEqual([]);
});

test('the sections exist where the docs promise them, and every name is known', () => {
  const names = files.flatMap((file) =>
    sectionNames(readFileSync(join(ROOT, file), 'utf8')).map((name) => `${file}:${name}`)
  );
  expect(names).toEqual(
    expect.arrayContaining(['docs/rest-contract.md:operation-count', 'docs/where-we-differ.md:added-operations']),
  );
  const known = Object.keys(generatedSections());
  expect(names.filter((n) => !known.includes(n.split(':')[1]))).toEqual([]);
});

test('the added operations include those a reader looks for (GET /quotes, POST /webhooks/test)', () => {
  expect(addedOperations()).toEqual(expect.arrayContaining(['`GET /quotes`', '`POST /webhooks/test`']));
});
