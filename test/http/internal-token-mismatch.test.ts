import { silentLogger } from '../../lib/log';
import { createPeerClients } from '../../lib/runtime/peer-clients';
import { DEFAULT_SANDBOX, ensureSandbox } from '../../gateway/sandbox-bootstrap';
import { startTestSystem, type TestSystem } from '../system-harness';

/** A gateway given another INTERNAL_TOKEN than the services': it says so at its first call instead of retrying. */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem();
});
afterAll(async () => {
  await sys.stop();
});

test('the bootstrap stops at the first refusal, naming INTERNAL_TOKEN; with the right token it succeeds', async () => {
  const addresses = Object.fromEntries(sys.system.services.map((s) => [s.name, s.address]));
  const wrong = createPeerClients(addresses, 'not-the-token-the-services-were-given-0123');
  try {
    await expect(ensureSandbox(wrong, DEFAULT_SANDBOX, silentLogger, 30))
      .rejects.toThrow(
        "the services refuse this gateway's INTERNAL_TOKEN: every component must be given the same INTERNAL_TOKEN",
      );
  } finally {
    wrong.closeAll();
  }
  await expect(ensureSandbox(sys.system.peers, DEFAULT_SANDBOX, silentLogger, 30)).resolves.toBeUndefined();
});
