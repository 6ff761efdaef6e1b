import { appendFileSync } from 'node:fs';
import { createContractValidator } from '../../gateway/contract/contract-ajv';
import { WEBHOOK_KINDS, webhookKindOf } from '../../gateway/contract/webhook-kinds';
import { isReferenceWebhookType } from '../../lib/contract/webhook-types';
import { referenceWebhookProblems } from './reference-contract';

const validate = createContractValidator();

/** What our OpenAPI document (`webhooks`) finds wrong in one webhook body: its kind must be described and match. */
export function ourWebhookProblems(webhook: { type?: unknown; [member: string]: unknown }): string[] {
  const type = String(webhook.type);
  const kind = webhookKindOf(type);
  if (!kind) return [`webhook ${type}: no kind of our OpenAPI document's webhooks describes this type`];
  return validate(kind.body, webhook).slice(0, 8).map((e) =>
    `webhook ${kind.name} ${type} (our document): ${e.instancePath || '(body)'} ${e.message} ${
      JSON.stringify(e.params)
    }`
  );
}

/**
 * The interface's failure reasons (../shared/spec/interface.md, which wins over the reference): an
 * incoming payment may fail with one the reference's IncomingTransactionFailureReason lacks
 * (docs/where-we-differ.md); that one difference is not a problem here.
 */
const INTERFACE_FAILURE_REASONS = new Set([
  'QUOTE_EXECUTION_FAILED',
  'PAYOUT_RETURNED',
  'LIMIT_EXCEEDED',
  'ACCOUNT_CANNOT_RECEIVE',
  'ACCOUNT_INVALID',
  'COMPLIANCE_REJECTED',
  'SCA_NOT_COMPLETED',
]);

function isInterfaceFailureReason(webhook: { [member: string]: unknown }, problem: string): boolean {
  const reason = (webhook.data as { failureReason?: unknown } | undefined)?.failureReason;
  return problem.includes('/data/failureReason must be equal to one of the allowed values')
    && INTERFACE_FAILURE_REASONS.has(String(reason));
}

/**
 * What our document and the reference find wrong in one received webhook body. The reference's
 * problems are also appended to REFERENCE_REPORT (as the harness does for responses); a type the
 * reference lacks is an opt-in extension, checked against our document only.
 */
export function webhookContractProblems(webhook: { type?: unknown; [member: string]: unknown }): string[] {
  const ours = ourWebhookProblems(webhook);
  if (!isReferenceWebhookType(String(webhook.type))) return ours;
  const reference = referenceWebhookProblems(webhook).filter((problem) => !isInterfaceFailureReason(webhook, problem));
  if (process.env.REFERENCE_REPORT) for (const p of reference) appendFileSync(process.env.REFERENCE_REPORT, `${p}\n`);
  return [...ours, ...reference];
}

/**
 * Compiles every validator now (about a second of CPU): a receiver that compiled them on its first
 * webhook would answer that one late, and an approval webhook is attempted once within a timeout.
 */
export function compileWebhookContract(): void {
  for (const kind of WEBHOOK_KINDS) {
    for (const type of kind.types) {
      ourWebhookProblems({ type });
      if (isReferenceWebhookType(type)) referenceWebhookProblems({ type });
    }
  }
}

/** `WEBHOOK_REPORT=<file>`: how many webhooks each receiver validated, one number a line (summed for the report). */
export function recordValidated(count: number): void {
  if (process.env.WEBHOOK_REPORT && count > 0) appendFileSync(process.env.WEBHOOK_REPORT, `${count}\n`);
}
