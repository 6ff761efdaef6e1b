import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { OPERATIONS } from '../../gateway/contract/operation-registry';

/** Grid's SDKs group operations by tag: an operation the reference also has carries the reference's tags. */
const REFERENCE = join(__dirname, '../../../shared/reference/grid-openapi.yaml');
const reference = parse(readFileSync(REFERENCE, 'utf8')) as { paths: Record<string, Record<string, { tags?: string[] }>> };

test('every operation the reference also has carries the reference\'s tags', () => {
  const differing = OPERATIONS.flatMap((op) => {
    const tags = reference.paths[op.path]?.[op.method]?.tags;
    return tags && JSON.stringify(tags) !== JSON.stringify(op.tags) ? [`${op.method.toUpperCase()} ${op.path}: ${JSON.stringify(op.tags)} (reference ${JSON.stringify(tags)})`] : [];
  });
  expect(differing).toEqual([]);
});
