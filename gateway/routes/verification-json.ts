import type { KycLink, Verification } from '../../gen/accounts/v1/verifications';
import { nonEmpty, withoutAbsent } from './rest-request';

/** The REST Verification. */
export function verificationJson(v: Verification) {
  return withoutAbsent({
    id: v.id,
    customerId: v.customerId,
    verificationStatus: v.verificationStatus,
    errors: v.errors.map((e) =>
      withoutAbsent({
        resourceId: e.resourceId,
        type: e.type,
        field: e.field,
        acceptedDocumentTypes: nonEmpty(e.acceptedDocumentTypes),
        reason: e.reason,
      })
    ),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  });
}

/** The REST KycLinkResponse; the SDK's GET form also names the customer. */
export function kycLinkJson(link: KycLink, withCustomer: boolean) {
  return withoutAbsent({
    kycUrl: link.kycUrl,
    expiresAt: link.expiresAt,
    provider: link.provider,
    token: link.token,
    ...(withCustomer ? { customerId: link.customerId, platformCustomerId: link.platformCustomerId } : {}),
  });
}
