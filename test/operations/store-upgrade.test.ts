import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { killSystemProcess, startSystemProcess } from '../reliability/system-process';
import { releaseVersion } from '../../lib/runtime/release';
import { LATEST_STORE_VERSION } from '../../lib/store/sqlite-schema';

/**
 * Upgrades are one-way: a data directory a newer release opened (and moved to its store format) is
 * refused by an older release, with one line naming the newer release and format, and left unchanged.
 * Here the "newer release" is this one's directory with its format and recorded writer moved ahead.
 */
jest.setTimeout(5 * 60_000);

test(
  'an older release on a directory a newer release upgraded '
    + 'refuses to start, naming the newer release; nothing is changed',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'grid-upgraded-'));
    try {
      const first = await startSystemProcess({ DATA_DIR: dataDir });
      await killSystemProcess(first, 'SIGTERM');
      const files = readdirSync(dataDir).filter((f) => f.endsWith('.sqlite'));
      expect(files.length).toBeGreaterThanOrEqual(4);
      for (const file of files) {
        const db = new Database(join(dataDir, file));
        expect(db.prepare('SELECT release, format FROM store_writer').get()).toEqual({
          release: releaseVersion(),
          format: LATEST_STORE_VERSION,
        });
        db.pragma(`user_version = ${LATEST_STORE_VERSION + 1}`);
        db.prepare('UPDATE store_writer SET release = ?, format = ?').run('9.4.0', LATEST_STORE_VERSION + 1);
        db.close();
      }

      const refused = await startSystemProcess({ DATA_DIR: dataDir }).then(
        () => undefined,
        (err: Error) => err.message,
      );
      expect(refused).toMatch(/^the system exited \(1\) before it started: cannot start: /);
      expect(refused).toMatch(
        new RegExp(
          `\\.sqlite was written by a newer release, grid-payments 9\\.4\\.0, in store format ${
            LATEST_STORE_VERSION + 1
          }; `
            + `this release \\(grid-payments [^)]+\\) reads store formats up to ${LATEST_STORE_VERSION}\\. `
            + 'Nothing was changed',
        ),
      );
      expect(refused).not.toMatch(/bson/i);
      for (const file of files) {
        const db = new Database(join(dataDir, file), { readonly: true });
        expect({ file, format: db.pragma('user_version', { simple: true }) }).toEqual({
          file,
          format: LATEST_STORE_VERSION + 1,
        });
        db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
