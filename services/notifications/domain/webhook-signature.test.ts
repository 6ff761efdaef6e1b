import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { webhookBody, webhookNotificationOf } from './webhook-envelope';
import { signWebhookBody, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from './webhook-signature';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const event = {
  id: 'Event:0b8f5c2e-3f7a-4c1d-9a55-1f2e3d4c5b6a',
  type: 'OUTGOING_PAYMENT.COMPLETED',
  version: 1,
  occurredAt: '2026-01-01T00:00:00.000Z',
  platformId: 'Platform:00000000-0000-4000-8000-000000000001',
  aggregateId: 'Transaction:1',
  data: { id: 'Transaction:1', status: 'COMPLETED', amount: 10550 },
};

test('the header is the one the reference names', () => {
  expect(WEBHOOK_SIGNATURE_HEADER).toBe('X-Grid-Signature');
});

test('the signature is base64 DER ECDSA P-256 over SHA-256 of the exact body, checkable with node:crypto alone', () => {
  const body = webhookBody(webhookNotificationOf(event)!, new Date('2026-01-01T00:00:05Z'));
  const signature = signWebhookBody(body, privateKey);
  expect(signature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  const der = Buffer.from(signature, 'base64');
  expect(der[0]).toBe(0x30); // a DER SEQUENCE of r and s
  expect(verify('sha256', Buffer.from(body), createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })), der))
    .toBe(true);
  expect(verifyWebhookSignature(body, signature, publicKey)).toBe(true);
});

test('any change of the body, another key, or a malformed header fails verification', () => {
  const body = webhookBody(webhookNotificationOf(event)!, new Date('2026-01-01T00:00:05Z'));
  const signature = signWebhookBody(body, privateKey);
  expect(verifyWebhookSignature(body.replace('10550', '10551'), signature, publicKey)).toBe(false);
  expect(verifyWebhookSignature(body, signature, generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey))
    .toBe(false);
  expect(verifyWebhookSignature(body, 't=1,v1=abc', publicKey)).toBe(false);
  expect(verifyWebhookSignature(body, '', publicKey)).toBe(false);
});
