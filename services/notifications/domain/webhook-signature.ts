import { sign, verify, type KeyObject } from 'node:crypto';

/** The header the reference names for webhook signatures. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Grid-Signature';
export const WEBHOOK_SIGNATURE_ALGORITHM = 'ECDSA-P256-SHA256';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The reference's scheme: ECDSA over P-256 with SHA-256 of the exact body bytes, the DER-encoded
 * signature in base64. The body's `timestamp` is inside the signed bytes.
 */
export function signWebhookBody(body: string | Buffer, privateKey: KeyObject): string {
  return sign('sha256', Buffer.from(body), privateKey).toString('base64');
}

export function verifyWebhookSignature(
  body: string | Buffer,
  signature: string,
  publicKey: KeyObject | string,
): boolean {
  if (!BASE64.test(signature)) return false;
  try {
    return verify('sha256', Buffer.from(body), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
