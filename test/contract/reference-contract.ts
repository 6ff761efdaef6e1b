import { appendFileSync, readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { parse } from 'yaml';
import { findOperation } from '../../gateway/contract/operation-registry';
import { REFERENCE_OPENAPI } from '../shared-reference.cjs';

/**
 * Grid's public OpenAPI (../shared/reference, beside the project as in CI): what Grid's SDK and the
 * reference expect back. A served operation that the reference also has must answer a body its
 * response schema for that status accepts. Formats are not checked (the reference names some no
 * validator knows); OpenAPI's `discriminator` is left to the `oneOf` it annotates.
 */

interface ReferenceDocument {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
}

let loaded: { document: ReferenceDocument; ajv: Ajv2020 } | undefined;
const compiled = new Map<string, ValidateFunction | null>();

function reference() {
  if (!loaded) {
    const document = parse(readFileSync(REFERENCE_OPENAPI, 'utf8')) as ReferenceDocument;
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, validateFormats: false });
    ajv.addSchema({ ...document, $id: 'reference' });
    loaded = { document, ajv };
  }
  return loaded;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The reference's validator for this answer, or null when the reference does not describe it. */
function validatorFor(method: string, template: string, status: number): ValidateFunction | null {
  const key = `${method} ${template} ${status}`;
  if (!compiled.has(key)) {
    const { document, ajv } = reference();
    const response = document.paths[template]?.[method]?.responses?.[String(status)];
    const described = response?.content?.['application/json']?.schema !== undefined;
    compiled.set(
      key,
      described
        ? ajv.compile({
          $ref: `reference#/${
            pointer('paths', template, method, 'responses', String(status), 'content', 'application/json', 'schema')
          }`,
        })
        : null,
    );
  }
  return compiled.get(key)!;
}

/** What the reference finds wrong in one answer (empty when it accepts it or does not describe it). */
export function referenceProblems(method: string, urlPath: string, status: number, body: unknown): string[] {
  const op = findOperation(method, urlPath);
  if (!op) return [];
  const validate = validatorFor(method.toLowerCase(), op.path, status);
  if (!validate || validate(body)) return [];
  return (validate.errors ?? []).slice(0, 8).map((e) =>
    `${method.toUpperCase()} ${op.path} ${status}: ${e.instancePath || '(body)'} ${e.message} ${
      JSON.stringify(e.params)
    }`
  );
}

/**
 * Operations whose answers are complete by the reference (whole resources): every HTTP
 * test's answer to one of them must be accepted by the reference's schema for it, not just
 * reported. Transactions are not strict yet: an incoming payment's failure reasons are outside the
 * reference's IncomingTransactionFailureReason.
 */
const STRICT_OPERATIONS = new Set([
  'createQuote',
  'getQuote',
  'listQuotes',
  'executeQuote',
  'transferIn',
  'transferOut',
  'sandboxSend',
  'createBeneficialOwner',
  'listBeneficialOwners',
  'getBeneficialOwner',
  'updateBeneficialOwner',
  'createCard',
  'listCards',
  'getCardById',
  'updateCardById',
  'sandboxSimulateCardAuthorization',
  'sandboxSimulateCardClearing',
  'sandboxSimulateCardReturn',
]);
const STRICT_SUCCESSES = new Set<string>([
  // Strong Customer Authentication (docs/api/sca.md)
  'listScaFactors',
  'startScaFactorEnrollment',
  'confirmScaFactorEnrollment',
  'startScaLogin',
  'completeScaLogin',
  'recordSecurityEvent',
  'startTwoFactorReset',
  'getTwoFactorResetStatus',
  'startBeneficiaryTrust',
  'confirmBeneficiaryTrust',
  'startBeneficiaryUntrust',
  'confirmBeneficiaryUntrust',
  'authorizeQuote',
]);

/** Error codes of ours that docs/where-we-differ.md lists where the reference has no code for the case. */
const DOCUMENTED_EXTRA_CODES = new Set([
  'INSUFFICIENT_BALANCE',
  'INVALID_STATE',
  'USER_NOT_READY',
  'FORBIDDEN',
  'CUSTOMER_DELETED',
  'IDEMPOTENCY_KEY_REUSED',
  'STORAGE_FULL',
  // Named by the reference's createCard and updateCardById descriptions, missing from its Error400 enum
  // (docs/api/cards.md).
  'FUNDING_SOURCE_INELIGIBLE',
]);

const isDocumentedExtraError = (status: number, body: unknown) =>
  status >= 400 && typeof body === 'object' && body !== null
  && DOCUMENTED_EXTRA_CODES.has(String((body as { code?: unknown }).code));

/** The reference's validator for one of its component schemas (a request body an SDK sends). */
export function referenceSchemaValidator(name: string): ValidateFunction {
  return reference().ajv.compile({ $ref: `reference#/components/schemas/${name}` });
}

/** Throws with the reference's problems when an answer to a strict operation is refused by it. */
export function assertReferenceAccepts(method: string, url: string, status: number, body: unknown): void {
  const op = findOperation(method, new URL(url, 'http://gateway').pathname);
  if (!op || !(STRICT_OPERATIONS.has(op.operationId) || (STRICT_SUCCESSES.has(op.operationId) && status < 300))) return;
  if (isDocumentedExtraError(status, body)) return;
  const problems = referenceProblems(method, new URL(url, 'http://gateway').pathname, status, body);
  if (problems.length) throw new Error(`the reference refuses this answer:\n${problems.join('\n')}`);
}

/**
 * `REFERENCE_REPORT=<file> npm test`: every answer of every HTTP test that the reference's schemas
 * refuse is appended to the file, to review the differences (docs/where-we-differ.md).
 */
export function reportReferenceProblems(method: string, url: string, status: number, body: unknown): void {
  const file = process.env.REFERENCE_REPORT;
  if (!file) return;
  for (const problem of referenceProblems(method, new URL(url, 'http://gateway').pathname, status, body)) {
    appendFileSync(file, `${problem}\n`);
  }
}

interface ReferenceWebhooks {
  webhooks: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }
  >;
  components: { schemas: Record<string, { allOf?: { properties?: { type?: { enum?: string[] } } }[] }> };
}

let webhookKinds: Map<string, { kind: string; validate: ValidateFunction }> | undefined;

/** The reference's webhook kind of each type (`OUTGOING_PAYMENT.COMPLETED` → outgoing-payment) with its validator. */
function referenceWebhookKinds() {
  if (!webhookKinds) {
    const { document, ajv } = reference();
    const doc = document as unknown as ReferenceWebhooks;
    webhookKinds = new Map();
    for (const [kind, item] of Object.entries(doc.webhooks)) {
      const ref = item.post.requestBody.content['application/json'].schema.$ref;
      const schema = doc.components.schemas[ref.split('/').pop()!];
      const types = schema.allOf?.flatMap((part) => part.properties?.type?.enum ?? []) ?? [];
      const validate = ajv.compile({ $ref: `reference${ref}` });
      for (const type of types) webhookKinds.set(type, { kind, validate });
    }
  }
  return webhookKinds;
}

/** The reference's closed list of webhook types (`WebhookType`). */
export function referenceWebhookTypes(): string[] {
  const doc = reference().document as unknown as { components: { schemas: Record<string, { enum?: string[] }> } };
  return doc.components.schemas.WebhookType.enum ?? [];
}

/**
 * What the reference finds wrong in one webhook body: its type must be in `WebhookType` and the
 * body must match the schema of the kind that lists the type.
 */
export function referenceWebhookProblems(webhook: { type?: unknown }): string[] {
  const type = String(webhook.type);
  const found = referenceWebhookKinds().get(type);
  if (!referenceWebhookTypes().includes(type) || !found) {
    return [`webhook ${type}: not a type of the reference's WebhookType list`];
  }
  if (found.validate(webhook)) return [];
  return (found.validate.errors ?? []).slice(0, 8).map((e) =>
    `webhook ${found.kind} ${type}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`
  );
}
