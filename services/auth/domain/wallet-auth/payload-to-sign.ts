import { canonicalJson, sha256Hex } from './canonical-json';

export interface PayloadInput {
  /** Operation name, for example "credential.revoke". */
  operation: string;
  platformId: string;
  requestId: string;
  issuedAt: Date;
  /** Hash of the request identity (operation, target, body): the stamp commits to the body. */
  requestHash: string;
  /** Further members the client should see it is signing (target ids, keys). */
  parameters?: Record<string, unknown>;
}

/** "credential.revoke" -> "ACTIVITY_TYPE_CREDENTIAL_REVOKE". */
export function activityTypeOf(operation: string): string {
  return `ACTIVITY_TYPE_${operation.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/**
 * The text a client stamps, shaped like a wallet activity: canonical JSON, so the bytes are
 * fixed once issued and the client signs them exactly as returned.
 */
export function payloadToSign(input: PayloadInput): string {
  return canonicalJson({
    organizationId: input.platformId,
    parameters: { ...input.parameters, requestHash: input.requestHash },
    requestId: input.requestId,
    timestampMs: String(input.issuedAt.getTime()),
    type: activityTypeOf(input.operation),
  });
}

/** The passkey challenge: lowercase hex SHA-256 of the canonical session-creation payload. */
export function passkeyChallengeOf(sessionCreationPayload: string): string {
  return sha256Hex(sessionCreationPayload);
}
