import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiOf, preparePayer } from './crash-workload';
import { killSystemProcess, startSystemProcess, type SystemProcess } from './system-process';

/**
 * A lookup writes nothing (its id is signed), so what it acknowledged must survive a kill by
 * itself: the system SIGKILLed right after the lookup answered, then started on the same data
 * directory, prices a quote citing it, and refuses the same id with a digit changed.
 */
jest.setTimeout(5 * 60_000);

test('a lookup answered before a SIGKILL is still taken by a quote after the restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'grid-lookup-restart-'));
  let system: SystemProcess = await startSystemProcess({ DATA_DIR: dataDir });
  const api = apiOf(() => system.rootUrl);
  try {
    const payer = await preparePayer(api, 0);
    const lookup = await api(`/receiver/external-account/${payer.mxnPayee}?customerId=${payer.customerId}`);
    expect(lookup.status).toBe(200);
    await killSystemProcess(system, 'SIGKILL');
    system = await startSystemProcess({ DATA_DIR: dataDir });

    const quote = (lookupId: string) =>
      api('/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: payer.usdAccount },
        destination: { destinationType: 'ACCOUNT', accountId: payer.mxnPayee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        lookupId,
      });
    const taken = await quote(lookup.body.lookupId);
    expect([taken.status, taken.body.status]).toEqual([201, 'PENDING']);
    const changed = await quote(lookup.body.lookupId.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')));
    expect([changed.status, changed.body.code]).toEqual([404, 'LOOKUP_REQUEST_NOT_FOUND']);
  } finally {
    await killSystemProcess(system, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
