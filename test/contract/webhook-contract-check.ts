import { appendFileSync } from 'node:fs';
import { referenceWebhookProblems } from './reference-contract';

/** What our document and the reference find wrong in one received webhook body. */
export function webhookContractProblems(webhook: { type?: unknown }): string[] {
  return referenceWebhookProblems(webhook);
}

/** `WEBHOOK_REPORT=<file>`: how many webhooks each receiver validated, one number a line (summed for the report). */
export function recordValidated(count: number): void {
  if (process.env.WEBHOOK_REPORT && count > 0) appendFileSync(process.env.WEBHOOK_REPORT, `${count}\n`);
}
