import { Type } from '@sinclair/typebox';
import { DOCUMENT_TYPES } from '../../lib/contract/document-types';
import { VERIFICATION_ERROR_TYPES, VERIFICATION_STATES } from '../../lib/contract/verification-vocabulary';
import { idPattern } from '../../lib/ids';
import {
  BeneficialOwner,
  identifier,
  Percentage,
  personalMembers,
  Roles,
} from '../../lib/contract/beneficial-owner-records';
import { Page, pageQuery } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, Country, DateTime, Id, named, StringEnum } from './schema-kit';

const VerificationError = named(
  'VerificationError',
  ClosedObject({
    resourceId: Type.String({ description: 'The Customer, BeneficialOwner or Document concerned' }),
    type: StringEnum(VERIFICATION_ERROR_TYPES),
    field: Type.Optional(Type.String({ description: 'Dot path of the member, for MISSING_FIELD and INVALID_FIELD' })),
    acceptedDocumentTypes: Type.Optional(
      Type.Array(StringEnum(DOCUMENT_TYPES), { description: 'Any one of these would do' }),
    ),
    reason: Type.String(),
  }),
);

export const Verification = named(
  'Verification',
  ClosedObject({
    id: Id('Verification'),
    customerId: Id('Customer'),
    verificationStatus: StringEnum(VERIFICATION_STATES),
    errors: Type.Array(VerificationError, {
      description: 'What stands in the way; empty unless RESOLVE_ERRORS (or REJECTED with its reason)',
    }),
    createdAt: DateTime(),
    updatedAt: Type.Optional(DateTime()),
  }),
);

const kycLinkMembers = {
  kycUrl: Type.String({ description: 'The hosted verification page: single use, valid until expiresAt' }),
  expiresAt: DateTime(),
  provider: StringEnum(['SUMSUB'] as const),
  token: Type.Optional(
    Type.String({ description: 'A provider SDK token, to embed the flow instead of the hosted page' }),
  ),
};

export const KycLink = named('KycLink', ClosedObject(kycLinkMembers));
export const KycLinkByPlatformId = named(
  'KycLinkByPlatformCustomerId',
  ClosedObject({
    ...kycLinkMembers,
    customerId: Id('Customer'),
    platformCustomerId: Type.String(),
  }),
);

const KycLinkCreateRequest = named(
  'KycLinkCreateRequest',
  Type.Object({
    redirectUri: Type.Optional(
      Type.String({
        format: 'url',
        description: 'Where the page sends the customer once done (https://, or http:// for local development)',
      }),
    ),
  }),
);

const KYC_TAGS = ['KYC/KYB Verifications'];

export { BeneficialOwner };

const PersonalInfoCreate = named('BeneficialOwnerPersonalInfoCreate', Type.Object({ ...personalMembers, identifier }));
const PersonalInfoUpdate = named(
  'BeneficialOwnerPersonalInfoUpdate',
  Type.Partial(Type.Object({ ...personalMembers, identifier })),
);

const ownerId = { beneficialOwnerId: Id('BeneficialOwner') };

export const Document = named(
  'Document',
  ClosedObject({
    id: Id('Document'),
    documentHolder: Type.String({ description: 'The Customer or BeneficialOwner it belongs to' }),
    documentType: StringEnum(DOCUMENT_TYPES),
    side: Type.Optional(StringEnum(['FRONT', 'BACK'] as const)),
    country: Type.String(),
    documentNumber: Type.Optional(Type.String()),
    issuingAuthority: Type.Optional(Type.String()),
    fileName: Type.String(),
    createdAt: DateTime(),
    updatedAt: Type.Optional(DateTime()),
  }),
);

export const kycOperations = [
  operation({
    operationId: 'createCustomerKycLink',
    method: 'post',
    path: '/customers/{customerId}/kyc-link',
    tags: KYC_TAGS,
    summary: 'A single-use hosted verification link for a customer',
    pathParams: { customerId: Id('Customer') },
    headers: ['idempotencyKey'],
    body: KycLinkCreateRequest,
    optionalBody: true,
    success: { 201: KycLink },
    errors: [404, 409],
  }),
  operation({
    operationId: 'getCustomerKycLink',
    method: 'get',
    path: '/customers/kyc-link',
    tags: KYC_TAGS,
    summary: "A single-use hosted verification link for the customer with this platformCustomerId (the SDK's form)",
    query: {
      platformCustomerId: Type.String({ minLength: 1 }),
      redirectUri: Type.Optional(Type.String({ format: 'url' })),
    },
    success: { 200: KycLinkByPlatformId },
    errors: [404, 409],
  }),
  operation({
    operationId: 'createVerification',
    method: 'post',
    path: '/verifications',
    tags: KYC_TAGS,
    summary: 'Submit (or resubmit) a customer for KYC/KYB: answers what is still missing, or IN_PROGRESS',
    body: named('VerificationRequest', Type.Object({ customerId: Id('Customer') })),
    success: { 200: Verification },
    errors: [404, 409],
  }),
  operation({
    operationId: 'listVerifications',
    method: 'get',
    path: '/verifications',
    tags: KYC_TAGS,
    summary: 'List verifications, oldest first',
    query: {
      customerId: Type.Optional(Type.String()),
      verificationStatus: Type.Optional(StringEnum(VERIFICATION_STATES)),
      ...pageQuery,
    },
    success: { 200: Page('VerificationList', Verification) },
  }),
  operation({
    operationId: 'getVerification',
    method: 'get',
    path: '/verifications/{verificationId}',
    tags: KYC_TAGS,
    summary: 'Read a verification',
    pathParams: { verificationId: Id('Verification') },
    success: { 200: Verification },
    errors: [404],
  }),
  operation({
    operationId: 'createBeneficialOwner',
    method: 'post',
    path: '/beneficial-owners',
    tags: KYC_TAGS,
    summary: 'Add a beneficial owner, director or officer to a business customer',
    body: named(
      'BeneficialOwnerCreateRequest',
      Type.Object({
        customerId: Id('Customer'),
        roles: Roles,
        ownershipPercentage: Percentage,
        personalInfo: PersonalInfoCreate,
      }),
    ),
    success: { 201: BeneficialOwner },
    errors: [404],
  }),
  operation({
    operationId: 'listBeneficialOwners',
    method: 'get',
    path: '/beneficial-owners',
    tags: KYC_TAGS,
    summary: 'List beneficial owners, oldest first',
    query: { customerId: Type.Optional(Type.String()), ...pageQuery },
    success: { 200: Page('BeneficialOwnerList', BeneficialOwner) },
  }),
  operation({
    operationId: 'getBeneficialOwner',
    method: 'get',
    path: '/beneficial-owners/{beneficialOwnerId}',
    tags: KYC_TAGS,
    summary: 'Read a beneficial owner',
    pathParams: ownerId,
    success: { 200: BeneficialOwner },
    errors: [404],
  }),
  operation({
    operationId: 'updateBeneficialOwner',
    method: 'patch',
    path: '/beneficial-owners/{beneficialOwnerId}',
    tags: KYC_TAGS,
    summary: 'Update a beneficial owner (personalInfo members merge)',
    pathParams: ownerId,
    body: named(
      'BeneficialOwnerUpdateRequest',
      Type.Object({
        roles: Type.Optional(Roles),
        ownershipPercentage: Type.Optional(Percentage),
        personalInfo: Type.Optional(PersonalInfoUpdate),
      }),
    ),
    success: { 200: BeneficialOwner },
    errors: [404, 409],
  }),
  ...documentOperations(),
  operation({
    operationId: 'getHostedKycPage',
    method: 'get',
    path: '/kyc/{linkToken}',
    root: true,
    authenticated: false,
    tags: KYC_TAGS,
    summary: 'The hosted verification page of a KYC link (HTML; in the sandbox the tester chooses the outcome)',
    pathParams: { linkToken: Type.String() },
    success: {
      200: Type.String({ description: 'HTML page' }),
      404: Type.String({ description: 'HTML page: unknown, used or expired link' }),
    },
    responseMediaTypes: { 200: 'text/html', 404: 'text/html' },
  }),
  operation({
    operationId: 'completeHostedKyc',
    method: 'post',
    path: '/kyc/{linkToken}',
    root: true,
    authenticated: false,
    tags: KYC_TAGS,
    summary: "The hosted page's form: finishes the flow with the chosen outcome, then redirects to redirectUri",
    pathParams: { linkToken: Type.String() },
    body: Type.Object({ outcome: StringEnum(['APPROVE', 'REJECT', 'MANUAL_REVIEW', 'RESOLVE_ERRORS'] as const) }),
    bodyMediaType: 'application/x-www-form-urlencoded',
    success: {
      200: Type.String({ description: 'HTML page' }),
      303: null,
      400: Type.String({ description: 'HTML page' }),
      404: Type.String({ description: 'HTML page' }),
    },
    responseMediaTypes: { 200: 'text/html', 400: 'text/html', 404: 'text/html' },
  }),
];

function documentOperations() {
  const TAGS = ['Documents'];
  // The gateway checks the form's text members with it (document-routes.ts); the file's rules (type from its bytes) are
  // the service's.
  const holder = `^(?:${idPattern('Customer').slice(1, -1)}|${idPattern('BeneficialOwner').slice(1, -1)})$`;
  const form = (creating: boolean) =>
    Type.Object({
      ...(creating
        ? { documentHolder: Type.String({ pattern: holder, description: 'A Customer or BeneficialOwner id' }) }
        : {}),
      documentType: creating ? StringEnum(DOCUMENT_TYPES) : Type.Optional(StringEnum(DOCUMENT_TYPES)),
      side: Type.Optional(StringEnum(['FRONT', 'BACK'] as const)),
      country: creating ? Country() : Type.Optional(Country()),
      documentNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      issuingAuthority: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
      file: Type.String({
        contentEncoding: 'binary',
        description: 'PDF, JPEG or PNG (recognised from its content), at most 10 MB',
      }),
    }, { required: creating ? ['documentHolder', 'documentType', 'country', 'file'] : [] });
  const documentId = { documentId: Id('Document') };
  // 400 also carries the rejection reasons: LOW_QUALITY, DATA_MISMATCH, EXPIRED, SUSPECTED_FRAUD, UNSUITABLE_DOCUMENT,
  // INCOMPLETE.
  return [
    operation({
      operationId: 'uploadDocument',
      method: 'post',
      path: '/documents',
      tags: TAGS,
      summary: 'Upload a verification document (multipart/form-data)',
      body: form(true),
      bodyMediaType: 'multipart/form-data',
      success: { 201: Document },
      errors: [404],
    }),
    operation({
      operationId: 'listDocuments',
      method: 'get',
      path: '/documents',
      tags: TAGS,
      summary: 'List documents, oldest first, by holder',
      query: { documentHolder: Type.Optional(Type.String()), ...pageQuery },
      success: { 200: Page('DocumentList', Document) },
    }),
    operation({
      operationId: 'getDocument',
      method: 'get',
      path: '/documents/{documentId}',
      tags: TAGS,
      summary: "Read a document's metadata",
      pathParams: documentId,
      success: { 200: Document },
      errors: [404],
    }),
    operation({
      operationId: 'getDocumentFile',
      method: 'get',
      path: '/documents/{documentId}/file',
      tags: TAGS,
      summary: "Download a document's file",
      pathParams: documentId,
      success: { 200: Type.String({ contentEncoding: 'binary' }) },
      errors: [404],
      responseMediaTypes: { 200: 'application/octet-stream' },
    }),
    operation({
      operationId: 'replaceDocument',
      method: 'put',
      path: '/documents/{documentId}',
      tags: TAGS,
      summary: "Replace a document's file and/or metadata (multipart/form-data)",
      pathParams: documentId,
      body: form(false),
      bodyMediaType: 'multipart/form-data',
      success: { 200: Document },
      errors: [404, 409],
    }),
    operation({
      operationId: 'deleteDocument',
      method: 'delete',
      path: '/documents/{documentId}',
      tags: TAGS,
      summary: 'Delete a document and its file',
      pathParams: documentId,
      success: { 204: null },
      errors: [404, 409],
    }),
  ];
}
