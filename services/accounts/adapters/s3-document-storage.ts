import { createHash, createHmac } from 'node:crypto';
import type { DocumentStorage } from '../app/document-storage';

export interface S3Settings {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** An S3-compatible endpoint (MinIO, R2, ...); AWS's regional endpoint otherwise. Path-style addressing. */
  endpoint?: string;
  /** Key prefix inside the bucket. */
  prefix: string;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** One request to sign at `now` with the bucket's credentials. */
interface S3Request {
  settings: S3Settings;
  method: string;
  url: URL;
  payload: Uint8Array;
  now: Date;
}

/** AWS Signature Version 4 headers for one request with the payload hash in `x-amz-content-sha256`. */
function signedHeaders({ settings: s, method, url, payload, now }: S3Request): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256(payload);
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
    ...(s.sessionToken ? { 'x-amz-security-token': s.sessionToken } : {}),
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    method,
    url.pathname,
    '',
    ...names.map((n) => `${n}:${headers[n]}`),
    '',
    names.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${day}/${s.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${s.secretAccessKey}`, day), s.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${s.accessKeyId}/${scope}, SignedHeaders=${
      names.join(';')
    }, Signature=${signature}`,
  };
}

/**
 * Document files in an S3 bucket (or any S3-compatible store), one object per key, written with
 * a single PUT (all or nothing). Untested here: no S3 service is reachable from these machines.
 */
export function createS3DocumentStorage(s: S3Settings, fetchImpl: typeof fetch = fetch): DocumentStorage {
  const base = (s.endpoint ?? `https://s3.${s.region}.amazonaws.com`).replace(/\/+$/, '');
  const urlOf = (key: string) =>
    new URL(`${base}/${encodeURIComponent(s.bucket)}/${(s.prefix + key).split('/').map(encodeURIComponent).join('/')}`);
  const call = async (method: string, key: string, body: Uint8Array = new Uint8Array()) => {
    const url = urlOf(key);
    return fetchImpl(url, {
      method,
      headers: signedHeaders({ settings: s, method, url, payload: body, now: new Date() }),
      ...(method === 'PUT' ? { body } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  };
  return {
    async put(key, content) {
      const res = await call('PUT', key, content);
      if (!res.ok) throw new Error(`document storage answered ${res.status} to a write`);
    },
    async get(key) {
      const res = await call('GET', key);
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`document storage answered ${res.status} to a read`);
      return Buffer.from(await res.arrayBuffer());
    },
    async delete(key) {
      const res = await call('DELETE', key);
      if (!res.ok && res.status !== 404) throw new Error(`document storage answered ${res.status} to a delete`);
    },
  };
}
