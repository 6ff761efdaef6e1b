import { Type } from '@sinclair/typebox';
import { List, Processing, SignedRetryChallenge } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, DateTime, Id, named, StringEnum } from './schema-kit';

const AUTH_METHOD_TYPES = ['OAUTH', 'EMAIL_OTP', 'SMS_OTP', 'PASSKEY'] as const;

const authMethodMembers = {
  id: Id('AuthMethod'),
  accountId: Id('InternalAccount'),
  type: StringEnum(AUTH_METHOD_TYPES),
  nickname: Type.String(),
  credentialId: Type.Optional(Type.String({ description: 'PASSKEY: the WebAuthn credential id' })),
  otpEncryptionTargetBundle: Type.Optional(
    Type.String({ description: 'EMAIL_OTP/SMS_OTP: the signed key the OTP is encrypted to' }),
  ),
  createdAt: DateTime(),
  updatedAt: DateTime(),
};

export const AuthMethod = named('AuthMethod', ClosedObject(authMethodMembers));

/** A passkey's registration or sign-in step: the WebAuthn challenge to answer with a Request-Id. */
export const PasskeyChallenge = named(
  'PasskeyChallenge',
  ClosedObject({
    ...Type.Partial(Type.Object(authMethodMembers)).properties,
    challenge: Type.String(),
    requestId: Type.String(),
    expiresAt: DateTime(),
  }),
);

export const AuthSession = named(
  'AuthSession',
  ClosedObject({
    id: Id('Session'),
    accountId: Id('InternalAccount'),
    type: StringEnum(AUTH_METHOD_TYPES),
    nickname: Type.String(),
    encryptedSessionSigningKey: Type.Optional(Type.String({ description: 'Only when the session is created' })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    expiresAt: DateTime(),
  }),
);

const EnclaveKey = named(
  'EnclavePublicKey',
  ClosedObject({
    enclaveQuorumPublic: Type.String({ description: 'Hex public key that signs otpEncryptionTargetBundle' }),
  }),
);

const Text = Type.String({ minLength: 1 });

const CredentialCreateRequest = named(
  'AuthCredentialCreateRequest',
  Type.Object({
    type: StringEnum(AUTH_METHOD_TYPES),
    accountId: Type.String({ description: "The embedded wallet's InternalAccount id" }),
    nickname: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    phoneNumber: Type.Optional(Type.String()),
    oidcToken: Type.Optional(Text),
    challenge: Type.Optional(Text),
    attestation: Type.Optional(Type.Object({})),
  }, { description: 'Members beyond `type` and `accountId` depend on the type' }),
);

const CredentialVerifyRequest = named(
  'AuthCredentialVerifyRequest',
  Type.Object({
    type: Type.Optional(StringEnum(AUTH_METHOD_TYPES, { description: "The credential's own type" })),
    encryptedOtpBundle: Type.Optional(Text),
    clientPublicKey: Type.Optional(Text),
    oidcToken: Type.Optional(Text),
    assertion: Type.Optional(Type.Object({})),
  }, { description: 'Members beyond `type` depend on the type' }),
);

const SessionRefreshRequest = named('SessionRefreshRequest', Type.Object({ clientPublicKey: Type.Optional(Text) }));

/** The answers of a signed-retry endpoint: challenge (202), still processing (200), the record. */
const signedRetry = (status: number, record: ReturnType<typeof named>) =>
  status === 200
    ? { 200: Type.Union([record, Processing]), 202: SignedRetryChallenge }
    : { [status]: record, 200: Processing, 202: SignedRetryChallenge };

const accountQuery = { accountId: Type.String({ description: "The embedded wallet's InternalAccount id" }) };
const credentialId = { id: Type.String({ description: 'AuthMethod id' }) };
const sessionId = { id: Type.String({ description: 'Session id' }) };
const TAGS = ['Embedded Wallet Auth'];
const SIGNED = ['walletSignature', 'requestId'] as const;

export const walletAuthOperations = [
  operation({
    operationId: 'listCredentials',
    method: 'get',
    path: '/auth/credentials',
    tags: TAGS,
    summary: "An embedded wallet's credentials",
    query: accountQuery,
    success: { 200: List('AuthMethodList', AuthMethod) },
    errors: [404],
  }),
  operation({
    operationId: 'createCredential',
    method: 'post',
    path: '/auth/credentials',
    tags: TAGS,
    summary: 'Add a credential (the first at once, others as a signed retry)',
    headers: [...SIGNED],
    body: CredentialCreateRequest,
    success: signedRetry(201, Type.Union([AuthMethod, PasskeyChallenge])),
    errors: [404, 409, 424],
  }),
  operation({
    operationId: 'challengeCredential',
    method: 'post',
    path: '/auth/credentials/{id}/challenge',
    tags: TAGS,
    summary: 'Send a new OTP, or start a passkey sign-in',
    pathParams: credentialId,
    optionalBody: true,
    body: named('AuthCredentialChallengeRequest', Type.Object({ clientPublicKey: Type.Optional(Text) })),
    success: { 200: Type.Union([AuthMethod, PasskeyChallenge]) },
    errors: [404, 409, 424],
  }),
  operation({
    operationId: 'verifyCredential',
    method: 'post',
    path: '/auth/credentials/{id}/verify',
    tags: TAGS,
    summary: 'Sign in with a credential: a session',
    pathParams: credentialId,
    headers: [...SIGNED],
    body: CredentialVerifyRequest,
    success: signedRetry(200, AuthSession),
    errors: [404, 409, 423, 424],
  }),
  operation({
    operationId: 'revokeCredential',
    method: 'delete',
    path: '/auth/credentials/{id}',
    tags: TAGS,
    summary: 'Revoke a credential (signed retry)',
    pathParams: credentialId,
    headers: [...SIGNED],
    optionalBody: true,
    body: Type.Object({}),
    success: { 204: null, 200: Processing, 202: SignedRetryChallenge },
    errors: [404, 409],
  }),
  operation({
    operationId: 'listSessions',
    method: 'get',
    path: '/auth/sessions',
    tags: TAGS,
    summary: "An embedded wallet's active sessions",
    query: accountQuery,
    success: { 200: List('AuthSessionList', AuthSession) },
    errors: [404],
  }),
  operation({
    operationId: 'revokeSession',
    method: 'delete',
    path: '/auth/sessions/{id}',
    tags: TAGS,
    summary: 'Revoke a session (signed retry)',
    pathParams: sessionId,
    headers: [...SIGNED],
    optionalBody: true,
    body: Type.Object({}),
    success: { 204: null, 200: Processing, 202: SignedRetryChallenge },
    errors: [404, 409],
  }),
  operation({
    operationId: 'refreshSession',
    method: 'post',
    path: '/auth/sessions/{id}/refresh',
    tags: TAGS,
    summary: 'A new session replacing this one (signed retry)',
    pathParams: sessionId,
    headers: [...SIGNED],
    body: SessionRefreshRequest,
    success: signedRetry(201, AuthSession),
    errors: [404, 409],
  }),
  operation({
    operationId: 'getEnclavePublicKey',
    method: 'get',
    path: '/auth/enclave-public-key',
    tags: TAGS,
    summary: 'The key that signs OTP encryption targets, to pin it',
    success: { 200: EnclaveKey },
  }),
];
