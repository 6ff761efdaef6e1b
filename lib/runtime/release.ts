import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let cached: string | undefined;

/** This release's version: package.json's, found from here whether running from the sources or from dist/. */
export function releaseVersion(): string {
  if (cached) return cached;
  const file = [join(__dirname, '..', '..', 'package.json'), join(__dirname, '..', '..', '..', 'package.json')].find(
    existsSync,
  );
  cached = file
    ? String((JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown')
    : 'unknown';
  return cached;
}
