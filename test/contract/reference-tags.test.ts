import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPERATIONS } from '../../gateway/contract/operation-registry';
import { REFERENCE_OPENAPI } from '../shared-reference.cjs';

/** Grid's SDKs group operations by tag: an operation the reference also has carries the reference's tags. */
const reference = parse(readFileSync(REFERENCE_OPENAPI, 'utf8')) as {
  paths: Record<string, Record<string, { tags?: string[] }>>;
};

test("every operation the reference also has carries the reference's tags", () => {
  const differing = OPERATIONS.flatMap((op) => {
    const tags = reference.paths[op.path]?.[op.method]?.tags;
    return tags && JSON.stringify(tags) !== JSON.stringify(op.tags)
      ? [`${op.method.toUpperCase()} ${op.path}: ${JSON.stringify(op.tags)} (reference ${JSON.stringify(tags)})`]
      : [];
  });
  expect(differing).toEqual([]);
});

test('where the signed-retry stamp is read, both header names are documented', async () => {
  const { buildOpenApiDocument } = await import('../../gateway/contract/openapi-document');
  const document = buildOpenApiDocument() as {
    paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
  };
  const headerSets = Object.values(document.paths).flatMap((ops) => Object.values(ops)).map((op) =>
    (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name)
  );
  const signed = headerSets.filter((names) => names.includes('Service-Wallet-Signature'));
  expect(signed.length).toBeGreaterThan(5);
  expect(signed.every((names) => names.includes('Grid-Wallet-Signature'))).toBe(true);
});
