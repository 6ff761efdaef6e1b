import { Type } from '@sinclair/typebox';
import { Page, pageQuery } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, DateTime, Id, named, StringEnum } from './schema-kit';

const DELIVERY_STATUSES = ['PENDING', 'DELIVERING', 'DELIVERED', 'FAILED', 'SKIPPED'] as const;
const ATTEMPT_OUTCOMES = ['ACKNOWLEDGED', 'REJECTED', 'UNREACHABLE', 'NO_ENDPOINT'] as const;

const TestWebhookResult = named(
  'TestWebhookResult',
  ClosedObject({
    url: Type.Optional(Type.String({ format: 'uri' })),
    response_status: Type.Integer({
      description: 'HTTP status the endpoint answered (0 when it could not be reached)',
    }),
    response_body: Type.Optional(
      Type.String({ description: 'Never returned: what answered at the endpoint is not read back' }),
    ),
    duration_ms: Type.Optional(
      Type.Integer({ minimum: 0, description: 'How long the endpoint took to answer, in milliseconds' }),
    ),
  }),
);

export const WebhookPublicKey = named(
  'WebhookPublicKey',
  ClosedObject({
    algorithm: Type.String(),
    signatureHeader: Type.String(),
    publicKeyPem: Type.String(),
    publicKeyHex: Type.String(),
  }),
);

export const WebhookSigningSecret = named(
  'WebhookSigningSecret',
  ClosedObject({
    scheme: Type.Literal('v1', { description: 'Standard Webhooks 1.0 symmetric scheme: HMAC-SHA256' }),
    secret: Type.String({
      pattern: '^whsec_',
      description: 'The secret of this endpoint; a new endpoint gets a new secret',
    }),
    url: Type.String({ description: 'The endpoint the secret belongs to' }),
    headers: Type.Array(Type.String(), { description: 'The Standard Webhooks headers every delivery carries' }),
  }),
);

export const WebhookDelivery = named(
  'WebhookDelivery',
  ClosedObject({
    id: Id('Webhook'),
    type: Type.String({ description: 'The event type' }),
    status: StringEnum(DELIVERY_STATUSES, { description: 'Where the delivery stands' }),
    attemptCount: Type.Integer({ minimum: 0 }),
    maxAttempts: Type.Integer({ minimum: 1 }),
    createdAt: DateTime(),
    nextAttemptAt: Type.Optional(DateTime()),
    deliveredAt: Type.Optional(DateTime()),
    data: Type.Optional(Type.Unknown({ description: 'The `data` member every attempt sends (our extension)' })),
    attempts: Type.Array(ClosedObject({
      attempt: Type.Integer({ minimum: 1 }),
      attemptedAt: DateTime(),
      url: Type.Optional(Type.String()),
      statusCode: Type.Optional(Type.Integer({ description: 'Absent when the endpoint did not answer' })),
      error: Type.Optional(Type.String()),
      durationMs: Type.Number({ minimum: 0 }),
      outcome: StringEnum(ATTEMPT_OUTCOMES),
    })),
  }),
);

const TAGS = ['Webhooks'];

export const webhookOperations = [
  operation({
    operationId: 'sendTestWebhook',
    method: 'post',
    path: '/sandbox/webhooks/test',
    tags: ['Sandbox'],
    summary: "Send a test event to the platform's webhook endpoint",
    optionalBody: true,
    body: Type.Object({}),
    success: { 200: TestWebhookResult },
  }),
  operation({
    operationId: 'sendTestWebhookUnprefixed',
    method: 'post',
    path: '/webhooks/test',
    tags: ['Sandbox'],
    summary: 'The same operation as POST /sandbox/webhooks/test (the path newer SDK releases call)',
    optionalBody: true,
    body: Type.Object({}),
    success: { 200: TestWebhookResult },
  }),
  operation({
    operationId: 'getWebhookSigningSecret',
    method: 'get',
    path: '/webhooks/signing-secret',
    tags: TAGS,
    summary: 'The Standard Webhooks secret of the current endpoint (our '
      + 'extension: verify deliveries with any Standard Webhooks library)',
    success: { 200: WebhookSigningSecret },
    errors: [400],
  }),
  operation({
    operationId: 'getWebhookPublicKey',
    method: 'get',
    path: '/webhooks/public-key',
    tags: TAGS,
    summary: 'The key webhook signatures verify with',
    success: { 200: WebhookPublicKey },
  }),
  operation({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/webhooks/deliveries',
    tags: TAGS,
    summary: 'The webhook delivery log, newest first',
    query: { status: Type.Optional(StringEnum(DELIVERY_STATUSES)), type: Type.Optional(Type.String()), ...pageQuery },
    success: { 200: Page('WebhookDeliveryList', WebhookDelivery) },
  }),
  operation({
    operationId: 'resendWebhookDelivery',
    method: 'post',
    path: '/webhooks/deliveries/{webhookId}/resend',
    tags: TAGS,
    summary: 'Our extension: send an ended delivery once more, as a new attempt with the same id and data',
    pathParams: { webhookId: Id('Webhook') },
    optionalBody: true,
    body: Type.Object({}),
    success: { 200: WebhookDelivery },
    errors: [404, 409],
  }),
  operation({
    operationId: 'getWebhookDelivery',
    method: 'get',
    path: '/webhooks/deliveries/{webhookId}',
    tags: TAGS,
    summary: 'One delivery and its attempts',
    pathParams: { webhookId: Id('Webhook') },
    success: { 200: WebhookDelivery },
    errors: [404],
  }),
];
