import { EXTENSION_WEBHOOK_TYPES, REFERENCE_WEBHOOK_TYPES } from '../../lib/contract/webhook-types';
import { ourWebhookProblems } from '../../test/contract/webhook-contract-check';
import { createContractValidator } from './contract-ajv';
import { buildOpenApiDocument } from './openapi-document';
import { WEBHOOK_KINDS, webhookKindOf } from './webhook-kinds';

/** Reference types we never send: none. */
const NOT_SENT = (_type: string) => false;

describe('the webhooks section of our OpenAPI document', () => {
  const document = buildOpenApiDocument() as {
    webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
    components: { schemas: Record<string, { properties: { type: { enum: string[] } } }> };
  };
  const typesOf = (name: string) => {
    const ref = document.webhooks[name].post.requestBody.content['application/json'].schema.$ref.split('/').pop()!;
    return document.components.schemas[ref].properties.type.enum;
  };

  it('describes every type we send: every reference type and every extension, each in exactly one kind', () => {
    const described = Object.keys(document.webhooks).flatMap(typesOf);
    const sent = [...REFERENCE_WEBHOOK_TYPES.filter((t) => !NOT_SENT(t)), ...EXTENSION_WEBHOOK_TYPES];
    expect([...described].sort()).toEqual([...sent].sort());
    expect(new Set(described).size).toBe(described.length);
    for (const type of sent) expect(webhookKindOf(type)).toBeDefined();
  });

  it('marks the extension kinds, which carry no reference type', () => {
    for (const kind of WEBHOOK_KINDS) {
      expect(kind.types.every((t) => (REFERENCE_WEBHOOK_TYPES as readonly string[]).includes(t))).toBe(!kind.extension);
      expect((document.webhooks[kind.name].post as Record<string, unknown>)['x-extension']).toBe(
        kind.extension || undefined,
      );
    }
  });

  it('compiles every body schema', () => {
    const validate = createContractValidator();
    for (const kind of WEBHOOK_KINDS) expect(() => validate(kind.body, {})).not.toThrow();
  });

  it('a received webhook of a type no kind describes, or a record that does not match its kind, is a problem', () => {
    const envelope = { id: 'Webhook:00000000-0000-8000-8000-000000000000', timestamp: new Date().toISOString() };
    expect(ourWebhookProblems({ ...envelope, type: 'TEST', data: {} })).toEqual([]);
    expect(ourWebhookProblems({ ...envelope, type: 'CUSTOMER.SOMETHING_NEW', data: {} })).toEqual([
      expect.stringMatching(/no kind of our OpenAPI document/),
    ]);
    expect(ourWebhookProblems({ ...envelope, type: 'PLATFORM.CONFIG_UPDATED', data: { platformId: 'p' } })).toEqual([
      expect.stringMatching(/changedFields/),
    ]);
    expect(
      ourWebhookProblems({
        ...envelope,
        type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        data: { accountId: 'a', change: 5 },
      }),
    ).not.toEqual([]);
  });
});
