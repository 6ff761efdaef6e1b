export { requestFingerprint as requestHash } from '../../../../lib/idempotency-key';
