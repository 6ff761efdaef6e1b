import { generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { silentLogger } from '../lib/log';
import { startTestSystem, type TestSystem } from '../test/system-harness';
import { parseStamp, STAMP_SCHEME, verifyStamp } from '../services/auth/domain/wallet-crypto/stamp';

/**
 * The full signed-retry round trip through the gateway (202 challenge, then the stamped retry
 * answered 200) and the stamp check alone, each as a ratio to a raw native P-256 verify
 * (`node:crypto`, prebuilt KeyObject) measured in the same run. The operation is the wallet
 * privacy PATCH, whose work besides the signed retry is small.
 * Run: npx tsc --outDir /tmp/bench -p . && node /tmp/bench/bench/signed-retry.bench.js
 */
export interface SignedRetryBenchmarkResult {
  nativeVerifyMicros: number;
  stampCheckMicros: number;
  /** Stamp check / native verify (target <= 2). */
  stampCheckRatio: number;
  /** Only the stamped retry (request, checks, claim, operation, response), median. */
  retryMicros: number;
  retryRatio: number;
  /** First call and retry together, median. */
  roundTripMicros: number;
  roundTripRatio: number;
  rounds: number;
}

interface ClientKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  compressed: string;
}

function clientKey(): ClientKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y as string, 'base64url');
  const compressed = Buffer.concat([Buffer.from([2 + (y[31] & 1)]), Buffer.from(jwk.x as string, 'base64url')])
    .toString('hex');
  return { privateKey, publicKey, compressed };
}

/** The same header `@turnkey/api-key-stamper` produces. */
function stampHeader(key: ClientKey, payload: string): string {
  const signature = sign('sha256', Buffer.from(payload, 'utf8'), { key: key.privateKey, dsaEncoding: 'der' }).toString(
    'hex',
  );
  return Buffer.from(JSON.stringify({ publicKey: key.compressed, scheme: STAMP_SCHEME, signature })).toString(
    'base64url',
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const micros = (start: bigint) => Number(process.hrtime.bigint() - start) / 1000;

function perOpMicros(iterations: number, op: () => boolean): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) if (!op()) throw new Error('verification failed during the benchmark');
  return micros(start) / iterations;
}

/** A wallet on a real customer internal account, and a session key registered for it. */
async function walletSession(sys: TestSystem): Promise<{ accountId: string; key: ClientKey }> {
  const customer = await sys.api('/customers', {
    method: 'POST',
    json: {
      customerType: 'INDIVIDUAL',
      platformCustomerId: randomUUID(),
      email: 'bench@example.com',
      fullName: 'Bench',
      birthDate: '1990-01-15',
      nationality: 'US',
      currencies: ['USD'],
    },
  });
  const accountId = (await sys.api(`/customers/internal-accounts?customerId=${customer.body.id}`)).body.data[0]
    .id as string;
  const ctx = { platformId: sys.sandbox.platformId };
  const { emailOtpCredential } = await sys.system.peers.walletAuth.provisionWallet({
    accountId,
    platformId: ctx.platformId,
    customerEmail: 'bench@example.com',
  }, ctx);
  // Sign in with the sandbox code through the real client library, then keep its key.
  const { turnkeyCrypto } = await import('../services/auth/domain/wallet-crypto/turnkey-client.fixture');
  const pinned = (await sys.api('/auth/enclave-public-key')).body.enclaveQuorumPublic;
  const challenge = await sys.api(`/auth/credentials/${emailOtpCredential!.id}/challenge`, { method: 'POST' });
  const key = clientKey();
  const uncompressed = key.publicKey.export({ format: 'der', type: 'spki' }).subarray(-65).toString('hex');
  const body = {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await turnkeyCrypto.encryptOtpCodeToBundle(
      '000000',
      challenge.body.otpEncryptionTargetBundle,
      uncompressed,
      pinned,
    ),
  };
  const path = `/auth/credentials/${emailOtpCredential!.id}/verify`;
  const first = await sys.api(path, { method: 'POST', json: body });
  const done = await sys.api(path, {
    method: 'POST',
    json: body,
    headers: {
      'Service-Wallet-Signature': stampHeader(key, first.body.payloadToSign),
      'Request-Id': first.body.requestId,
    },
  });
  if (done.status !== 200) throw new Error(`sign-in failed: ${done.status} ${JSON.stringify(done.body)}`);
  return { accountId, key };
}

export async function runSignedRetryBenchmark(
  { rounds = 200, verifyIterations = 5000 } = {},
): Promise<SignedRetryBenchmarkResult> {
  const sys = await startTestSystem({ logger: silentLogger, env: { WALLET_OTP_REISSUE_INTERVAL_MS: '0' } });
  try {
    const { accountId, key } = await walletSession(sys);
    const payload = '{"organizationId":"Platform:x","parameters":{},"requestId":"Request:x",'
      + '"timestampMs":"1","type":"ACTIVITY_TYPE_X"}';
    const signature = sign('sha256', Buffer.from(payload), { key: key.privateKey, dsaEncoding: 'der' });
    const header = stampHeader(key, payload);
    const native = () =>
      verify('sha256', Buffer.from(payload, 'utf8'), { key: key.publicKey, dsaEncoding: 'der' }, signature);
    const stampCheck = () => verifyStamp(parseStamp(header), payload);
    perOpMicros(verifyIterations, native);
    perOpMicros(verifyIterations, stampCheck);

    const path = `/internal-accounts/${accountId}`;
    const retries: number[] = [];
    const roundTrips: number[] = [];
    const nativeRuns: number[] = [];
    const stampRuns: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const json = { privateEnabled: i % 2 === 0 };
      const start = process.hrtime.bigint();
      const challenge = await sys.api(path, { method: 'PATCH', json });
      const firstMicros = micros(start);
      const headers = {
        'Service-Wallet-Signature': stampHeader(key, challenge.body.payloadToSign),
        'Request-Id': challenge.body.requestId,
      };
      const retryStart = process.hrtime.bigint();
      const retry = await sys.api(path, { method: 'PATCH', json, headers });
      const retryMicros = micros(retryStart);
      if (retry.status !== 200) throw new Error(`signed retry answered ${retry.status} ${JSON.stringify(retry.body)}`);
      retries.push(retryMicros);
      roundTrips.push(firstMicros + retryMicros);
      // Interleaved so both sides see the same machine load.
      if (i % 20 === 0) {
        nativeRuns.push(perOpMicros(500, native));
        stampRuns.push(perOpMicros(500, stampCheck));
      }
    }
    const nativeVerifyMicros = median(nativeRuns);
    const stampCheckMicros = median(stampRuns);
    const round = (n: number, digits = 2) => Number(n.toFixed(digits));
    return {
      nativeVerifyMicros: round(nativeVerifyMicros),
      stampCheckMicros: round(stampCheckMicros),
      stampCheckRatio: round(stampCheckMicros / nativeVerifyMicros, 3),
      retryMicros: round(median(retries)),
      retryRatio: round(median(retries) / nativeVerifyMicros, 1),
      roundTripMicros: round(median(roundTrips)),
      roundTripRatio: round(median(roundTrips) / nativeVerifyMicros, 1),
      rounds,
    };
  } finally {
    await sys.stop();
  }
}

if (require.main === module) {
  runSignedRetryBenchmark().then((result) => console.log(JSON.stringify(result, null, 2)), (err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
