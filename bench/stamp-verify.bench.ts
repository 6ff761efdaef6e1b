import { generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { clearStampKeyCache, parseStamp, STAMP_SCHEME, verifyStamp } from '../services/auth/domain/wallet-crypto/stamp';

/**
 * Stamp check (parseStamp + verifyStamp, key cache warm) against a raw native
 * crypto.verify on a prebuilt KeyObject, in the same process. Target: ratio <= 2.
 * Run: npx tsc --outDir /tmp/bench ... then node /tmp/bench/bench/stamp-verify.bench.js
 */
export interface StampBenchmarkResult {
  iterations: number;
  nativeMicrosPerOp: number;
  stampMicrosPerOp: number;
  ratio: number;
  /** First stamp of a key not yet cached (point validation and KeyObject creation included). */
  coldStampMicrosPerOp: number;
}

interface SignedSample {
  header: string;
  payload: string;
  publicKey: KeyObject;
  signature: Buffer;
}

function signedSample(payload: string): SignedSample {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y as string, 'base64url');
  const compressed = Buffer.concat([Buffer.from([2 + (y[31] & 1)]), Buffer.from(jwk.x as string, 'base64url')])
    .toString('hex');
  const signature = sign('sha256', Buffer.from(payload, 'utf8'), { key: privateKey, dsaEncoding: 'der' });
  const header = Buffer.from(
    JSON.stringify({ publicKey: compressed, scheme: STAMP_SCHEME, signature: signature.toString('hex') }),
  ).toString('base64url');
  return { header, payload, publicKey, signature };
}

function timeMicrosPerOp(iterations: number, op: () => boolean): number {
  let ok = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) if (op()) ok += 1;
  const elapsed = Number(process.hrtime.bigint() - start) / 1000;
  if (ok !== iterations) throw new Error('a signature failed to verify during the benchmark');
  return elapsed / iterations;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function runStampBenchmark({ iterations = 5000, rounds = 7 } = {}): StampBenchmarkResult {
  const sample = signedSample('{"requestId":"Request:7c4a8d09-ca37-4d3c-9b6e-1f0f5c2b9a10","type":"EMAIL_OTP"}');
  const native = () =>
    verify(
      'sha256',
      Buffer.from(sample.payload, 'utf8'),
      { key: sample.publicKey, dsaEncoding: 'der' },
      sample.signature,
    );
  const stamp = () => verifyStamp(parseStamp(sample.header), sample.payload);

  timeMicrosPerOp(iterations, native);
  timeMicrosPerOp(iterations, stamp);
  const nativeRuns: number[] = [];
  const stampRuns: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    nativeRuns.push(timeMicrosPerOp(iterations, native));
    stampRuns.push(timeMicrosPerOp(iterations, stamp));
  }

  const coldSamples = Array.from({ length: 300 }, (_, i) => signedSample(`{"n":${i}}`));
  clearStampKeyCache();
  let next = 0;
  const coldStampMicrosPerOp = timeMicrosPerOp(coldSamples.length, () => {
    const s = coldSamples[next++];
    return verifyStamp(parseStamp(s.header), s.payload);
  });

  const nativeMicrosPerOp = median(nativeRuns);
  const stampMicrosPerOp = median(stampRuns);
  return {
    iterations,
    nativeMicrosPerOp: Number(nativeMicrosPerOp.toFixed(2)),
    stampMicrosPerOp: Number(stampMicrosPerOp.toFixed(2)),
    ratio: Number((stampMicrosPerOp / nativeMicrosPerOp).toFixed(3)),
    coldStampMicrosPerOp: Number(coldStampMicrosPerOp.toFixed(2)),
  };
}

if (require.main === module) {
  console.log(JSON.stringify(runStampBenchmark(), null, 2));
}
