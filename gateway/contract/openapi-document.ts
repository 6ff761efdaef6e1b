import { STATUS_CODES } from 'node:http';
import type { TObject, TSchema } from '@sinclair/typebox';
import { API_VERSION } from './api-version';
import { HEADERS, type Operation } from './operation';
import { requiredPermission } from './operation-permissions';
import { OPERATIONS } from './operation-registry';
import { documentOperation } from './system-contract';
import { schemaName } from './schema-kit';
import { WEBHOOK_KINDS, type WebhookKind } from './webhook-kinds';

type Json = Record<string, unknown>;

/** Copies a schema as plain JSON, replacing each named part by a reference to its component. */
function publish(schema: unknown, components: Json, isComponentRoot = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => publish(item, components));
  if (typeof schema !== 'object' || schema === null) return schema;
  const name = schemaName(schema);
  if (name && !isComponentRoot) {
    if (!(name in components)) {
      components[name] = {};
      components[name] = publish(schema, components, true);
    }
    return { $ref: `#/components/schemas/${name}` };
  }
  const published = Object.fromEntries(
    Object.entries(schema).map((
      [key, value],
    ) => [key, key === 'properties' ? publishProperties(value as Json, components) : publish(value, components)]),
  );
  return withDiscriminatorMapping(schema as Json, published);
}

/** A discriminated `oneOf` of named branches is published with its mapping: tag value → branch. */
function withDiscriminatorMapping(schema: Json, published: Json): Json {
  const discriminator = schema.discriminator as { propertyName: string } | undefined;
  if (!discriminator || !Array.isArray(schema.oneOf)) return published;
  const mapping: Record<string, string> = {};
  for (const branch of schema.oneOf as Json[]) {
    const name = schemaName(branch);
    const tag = ((branch.properties ?? {}) as Record<string, { enum?: string[] }>)[discriminator.propertyName];
    if (name) for (const value of tag?.enum ?? []) mapping[value] = `#/components/schemas/${name}`;
  }
  return { ...published, discriminator: { ...discriminator, mapping } };
}

/** Member names are not schemas: never replaced, whatever they are called. */
function publishProperties(properties: Json, components: Json): Json {
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, publish(value, components)]));
}

function parameters(op: Operation, components: Json): Json[] {
  const list = (where: 'path' | 'query', schema: TObject | undefined) =>
    Object.entries(schema?.properties ?? {}).map(([name, s]) => {
      const { description, ...rest } = publish(s, components) as Json;
      return {
        name,
        in: where,
        required: where === 'path' || (schema?.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      };
    });
  const headers = (op.headers ?? []).map((key) => ({
    name: HEADERS[key].name,
    in: 'header',
    required: false,
    description: HEADERS[key].description,
    schema: { type: 'string' },
  }));
  return [...list('path', op.pathParams), ...list('query', op.query), ...headers];
}

function responses(op: Operation, components: Json): Json {
  return Object.fromEntries(
    Object.entries(op.responses).map(([status, schema]) => [status, {
      description: STATUS_CODES[Number(status)] ?? status,
      ...(schema
        ? {
          content: {
            [op.responseMediaTypes?.[Number(status)] ?? 'application/json']: { schema: publish(schema, components) },
          },
        }
        : {}),
    }]),
  );
}

function operationObject(op: Operation, components: Json): Json {
  const params = parameters(op, components);
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: op.tags,
    ...(op.authenticated
      ? { 'x-required-permission': requiredPermission(op), ...(op.agentAuth ? { security: [{ agentAuth: [] }] } : {}) }
      : { security: [] }),
    ...(params.length ? { parameters: params } : {}),
    ...(op.body
      ? {
        requestBody: {
          required: op.body.required,
          content: {
            [op.bodyMediaType ?? 'application/json']: { schema: publish(op.body.schema as TSchema, components) },
          },
        },
      }
      : {}),
    responses: responses(op, components),
  };
}

const SIGNATURE_HEADERS = ['X-Grid-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

/** What we POST to the platform's endpoint for one kind (OpenAPI 3.1 `webhooks`). */
function webhookObject(k: WebhookKind, components: Json): Json {
  return {
    post: {
      operationId: `${k.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
      summary: k.summary,
      tags: ['Webhooks'],
      ...(k.extension
        ? {
          'x-extension': true,
          description: 'Not in the reference: sent only to platforms that list '
            + 'its types in PATCH /config `webhookExtensionTypes`.',
        }
        : {}),
      parameters: SIGNATURE_HEADERS.map((name) => ({ name, in: 'header', required: true, schema: { type: 'string' } })),
      requestBody: { required: true, content: { 'application/json': { schema: publish(k.body, components) } } },
      responses: {
        200: { description: 'Received (any 2xx)' },
        409: { description: 'Already received (the same id): not sent again' },
      },
    },
  };
}

/** Operations served outside the version prefix say so with their own servers. */
function pathServers(op: Operation): Json {
  if (op === documentOperation) return { servers: [{ url: `/${API_VERSION}` }, { url: '/' }] };
  return op.root ? { servers: [{ url: '/' }] } : {};
}

/** The OpenAPI 3.1 document of everything the gateway serves, generated from the operation registry. */
export function buildOpenApiDocument(): Json {
  const components: Json = {};
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const item = (paths[op.path] ??= { ...pathServers(op) });
    item[op.method] = operationObject(op, components);
  }
  const webhooks = Object.fromEntries(WEBHOOK_KINDS.map((k) => [k.name, webhookObject(k, components)]));
  const tags = [...new Set(OPERATIONS.flatMap((op) => op.tags))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'grid-payments',
      version: API_VERSION,
      description:
        'The REST API of grid-payments: customers, accounts, quotes, transactions, embedded wallets and webhooks. '
        + 'Errors answer `{status, code, message, details?}`; invalid '
        + 'input lists every invalid field in `details.errors`.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: `/${API_VERSION}` }],
    security: [{ basicAuth: [] }],
    tags,
    paths,
    webhooks,
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'API token id and client secret' },
        agentAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The accessToken an agent received by redeeming its device code',
        },
      },
      schemas: JSON.parse(JSON.stringify(components)),
    },
  };
}

let cached: string | undefined;

/** The document as served (built once). */
export function openApiDocumentJson(): string {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return cached;
}
