import { Type } from '@sinclair/typebox';
import { operation } from './operation';
import { ClosedObject, DateTime, Id, named, Nullable, StringEnum } from './schema-kit';
import { Opaque, Origins, ScaChallenge, ScaFactor } from '../../lib/contract/sca-challenge';

/** Strong Customer Authentication (docs/api/sca.md): 409 for customers outside an SCA region. */
export { ScaChallenge, ScaFactor };

const proofMembers = {
  code: Type.Optional(
    Nullable(Type.String({ description: 'SMS or TOTP code (sandbox: 123456), or a TOTP recovery code' })),
  ),
  passkeyAssertion: Type.Optional(Nullable(Opaque('WebAuthn AuthenticationResponseJSON'))),
  origin: Type.Optional(Nullable(Type.String())),
};
export const ScaAuthorization = named(
  'ScaAuthorization',
  Type.Object({
    ...proofMembers,
    endUserIpAddress: Type.Optional(Nullable(Type.String())),
  }),
);

export const ScaFactorView = named(
  'ScaFactorView',
  ClosedObject({
    factor: ScaFactor,
    credentialId: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
  }),
);

const EnrollRequest = named(
  'ScaFactorEnrollRequestOneOf',
  Type.Object({ type: StringEnum(['TOTP', 'PASSKEY'] as const) }),
);
export const TotpEnrollmentStart = named(
  'TotpEnrollmentStart',
  ClosedObject({
    type: Type.Literal('TOTP'),
    secret: Type.String(),
    secretBase32Encoded: Type.String(),
    totpUri: Type.String({ description: 'otpauth:// provisioning URI' }),
  }),
);
export const PasskeyEnrollmentStart = named(
  'PasskeyEnrollmentStart',
  ClosedObject({
    type: Type.Literal('PASSKEY'),
    options: Opaque('WebAuthn PublicKeyCredentialCreationOptions (JSON)'),
    allowedOrigins: Origins,
    relyingPartyId: Type.String(),
  }),
);
const EnrollStart = named(
  'ScaFactorEnrollStartOneOf',
  Type.Union([TotpEnrollmentStart, PasskeyEnrollmentStart]),
);
const ConfirmRequest = named(
  'ScaFactorConfirmRequestOneOf',
  Type.Object({
    type: StringEnum(['TOTP', 'PASSKEY'] as const),
    secret: Type.Optional(Type.String({ description: 'TOTP: the secret the start returned' })),
    code: Type.Optional(Type.String({ description: "TOTP: the authenticator's current code" })),
    origin: Type.Optional(Type.String({ description: 'PASSKEY: the origin the credential was produced against' })),
    credential: Type.Optional(Opaque('PASSKEY: WebAuthn RegistrationResponseJSON')),
  }),
);
export const ScaFactorList = named('ScaFactorList', ClosedObject({ factors: Type.Array(ScaFactorView) }));
export const TotpEnrollmentConfirm = named(
  'TotpEnrollmentConfirmResponse',
  ClosedObject({ type: Type.Literal('TOTP'), recoveryCodes: Type.Array(Type.String()) }),
);
export const PasskeyEnrollmentConfirm = named(
  'PasskeyEnrollmentConfirmResponse',
  ClosedObject({ type: Type.Literal('PASSKEY'), factor: ScaFactorView }),
);
const ConfirmResponse = named(
  'ScaFactorConfirmResponseOneOf',
  Type.Union([TotpEnrollmentConfirm, PasskeyEnrollmentConfirm]),
);

export const LoginStart = named(
  'ScaLoginStart',
  ClosedObject({
    factor: ScaFactor,
    challengeId: Type.Optional(Nullable(Type.String())),
    expiresAt: Type.Optional(Nullable(DateTime())),
    passkeyOptions: Type.Optional(Nullable(Opaque('WebAuthn PublicKeyCredentialRequestOptions (JSON)'))),
    allowedOrigins: Type.Optional(Nullable(Origins)),
    relyingPartyId: Type.Optional(Nullable(Type.String())),
  }),
);
const LoginCompleteRequest = named(
  'ScaLoginCompleteRequest',
  Type.Object({
    factor: ScaFactor,
    endUserIpAddress: Type.String(),
    challengeId: Type.Optional(Nullable(Type.String())),
    ...proofMembers,
  }),
);
export const LoginComplete = named(
  'ScaLoginComplete',
  ClosedObject({ status: Type.String(), sessionExpiresAt: Type.Optional(Nullable(DateTime())) }),
);

const EVENT_TYPES = ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] as const;
export const RecordEventResponse = named(
  'RecordSecurityEventResponse',
  ClosedObject({
    eventType: StringEnum(EVENT_TYPES),
    suspended: Type.Boolean(),
    lockedUntil: Type.Optional(Nullable(DateTime())),
    failedAttempts: Type.Integer(),
  }),
);

export const ResetStart = named(
  'TwoFactorResetStart',
  ClosedObject({
    resetId: Type.String(),
    livenessAccessToken: Type.Optional(Nullable(Type.String())),
    verificationLink: Type.Optional(Nullable(Type.String())),
    expiresAt: Type.Optional(Nullable(DateTime())),
  }),
);
export const ResetStatus = named(
  'TwoFactorResetStatus',
  ClosedObject({
    status: StringEnum(['INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED', 'EXPIRED'] as const),
    factor: ScaFactor,
    enrollmentStatus: Type.Optional(Nullable(StringEnum(['PENDING', 'COMPLETED'] as const))),
    expiresAt: DateTime(),
    completedAt: Type.Optional(Nullable(DateTime())),
  }),
);
const ResetCompleteRequest = named(
  'TwoFactorResetCompleteRequest',
  Type.Object({
    mobile: Type.Optional(Type.Object({ countryCode: Type.String(), number: Type.String() })),
  }),
);

export const TrustStart = named('BeneficiaryTrustStart', ClosedObject({ scaChallenge: Type.Optional(ScaChallenge) }));
const TrustConfirmRequest = named(
  'BeneficiaryTrustConfirmRequest',
  Type.Object({ challengeId: Type.Optional(Nullable(Type.String())), ...proofMembers }),
);
export const TrustConfirm = named('BeneficiaryTrustConfirm', ClosedObject({ trusted: Type.Boolean() }));

const TAGS = ['Strong Customer Authentication'];
const customer = { customerId: Id('Customer') };
const account = { externalAccountId: Type.String({ description: 'The external account (beneficiary)' }) };
const E = [404, 409];

const trustOperations = (['trust', 'untrust'] as const).flatMap((verb) => {
  const Verb = verb === 'trust' ? 'Trust' : 'Untrust';
  return [
    operation({
      operationId: `startBeneficiary${Verb}`,
      method: 'post',
      path: `/customers/external-accounts/{externalAccountId}/${verb}`,
      tags: TAGS,
      summary: `Start ${verb}ing a beneficiary: answers the SCA challenge to satisfy`,
      pathParams: account,
      optionalBody: true,
      body: Type.Object({}),
      success: { 200: TrustStart },
      errors: E,
    }),
    operation({
      operationId: `confirmBeneficiary${Verb}`,
      method: 'post',
      path: `/customers/external-accounts/{externalAccountId}/${verb}/confirm`,
      tags: TAGS,
      summary: `Confirm ${verb}ing a beneficiary with the SCA proof`,
      pathParams: account,
      body: TrustConfirmRequest,
      success: { 200: TrustConfirm },
      errors: [...E, 423],
    }),
  ];
});

export const scaOperations = [
  operation({
    operationId: 'listScaFactors',
    method: 'get',
    path: '/sca/factors',
    tags: TAGS,
    summary: "List the customer's enrolled SCA factors",
    query: customer,
    success: { 200: ScaFactorList },
    errors: E,
  }),
  operation({
    operationId: 'startScaFactorEnrollment',
    method: 'post',
    path: '/sca/factors',
    tags: TAGS,
    summary: 'Start enrolling a TOTP or passkey factor',
    query: customer,
    body: EnrollRequest,
    success: { 200: EnrollStart },
    errors: E,
  }),
  operation({
    operationId: 'confirmScaFactorEnrollment',
    method: 'post',
    path: '/sca/factors/confirm',
    tags: TAGS,
    summary: 'Confirm a factor enrollment',
    query: customer,
    body: ConfirmRequest,
    success: { 200: ConfirmResponse },
    errors: E,
  }),
  operation({
    operationId: 'deleteScaFactor',
    method: 'delete',
    path: '/sca/factors/{credentialId}',
    tags: TAGS,
    summary: 'Delete an enrolled passkey',
    query: customer,
    pathParams: { credentialId: Type.String() },
    success: { 204: null },
    errors: E,
  }),
  operation({
    operationId: 'startScaLogin',
    method: 'post',
    path: '/sca/login/start',
    tags: TAGS,
    summary: 'Start an SCA login with a factor',
    query: customer,
    body: named('ScaLoginStartRequest', Type.Object({ factor: ScaFactor })),
    success: { 200: LoginStart },
    errors: [...E, 423],
  }),
  operation({
    operationId: 'completeScaLogin',
    method: 'post',
    path: '/sca/login/complete',
    tags: TAGS,
    summary: 'Complete an SCA login: opens the SCA session',
    query: customer,
    body: LoginCompleteRequest,
    success: { 200: LoginComplete },
    errors: [...E, 423],
  }),
  operation({
    operationId: 'recordSecurityEvent',
    method: 'post',
    path: '/sca/record-event',
    tags: TAGS,
    summary: 'Record a security event (lockout, session revocation)',
    query: customer,
    body: named('RecordSecurityEventRequest', Type.Object({ eventType: StringEnum(EVENT_TYPES) })),
    success: { 200: RecordEventResponse },
    errors: [...E, 423],
  }),
  operation({
    operationId: 'startTwoFactorReset',
    method: 'post',
    path: '/sca/factors/reset',
    tags: TAGS,
    summary: 'Start a liveness-gated 2FA reset',
    query: customer,
    body: named('TwoFactorResetStartRequest', Type.Object({ factor: ScaFactor })),
    success: { 201: ResetStart },
    errors: E,
  }),
  operation({
    operationId: 'getTwoFactorResetStatus',
    method: 'get',
    path: '/sca/factors/reset/{resetId}',
    tags: TAGS,
    summary: 'Poll a 2FA reset',
    query: customer,
    pathParams: { resetId: Type.String() },
    success: { 200: ResetStatus },
    errors: E,
  }),
  operation({
    operationId: 'completeTwoFactorReset',
    method: 'post',
    path: '/sca/factors/reset/{resetId}/complete',
    tags: TAGS,
    summary: 'Complete a 2FA reset once liveness passed',
    query: customer,
    pathParams: { resetId: Type.String() },
    body: ResetCompleteRequest,
    optionalBody: true,
    success: { 204: null },
    errors: E,
  }),
  ...trustOperations,
];
