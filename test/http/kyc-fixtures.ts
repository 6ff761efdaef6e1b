import type { WebhookReceiver } from '../fixtures/webhook-receiver';
import type { TestSystem } from '../system-harness';

let seq = 0;

/** A customer created over the API; `fields` override the individual defaults. */
export async function createCustomer(sys: TestSystem, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await sys.api('/customers', {
    method: 'POST',
    json: {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `kyc-${process.pid}-${Date.now()}-${seq++}`,
      ...fields,
    },
  });
  if (res.status !== 201) throw new Error(`customer not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The hosted page's path (the kycUrl names the configured public base; tests reach the gateway on its own port). */
export function hostedPath(kycUrl: string): string {
  return new URL(kycUrl).pathname;
}

/** Submits the hosted page's form as a browser would (no redirect followed). */
export async function chooseOutcome(sys: TestSystem, kycUrl: string, outcome: string): Promise<Response> {
  return fetch(`${sys.rootUrl}${hostedPath(kycUrl)}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
  });
}

export async function verificationWhen(
  sys: TestSystem,
  id: string,
  done: (v: any) => boolean,
  timeoutMs = 10_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await sys.api(`/verifications/${id}`);
    if (res.status === 200 && done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`verification ${id} stayed ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The webhook types received for one record (by `data.id`), in order of arrival. */
export function webhookTypesOf(receiver: WebhookReceiver, id: string, prefix: string): string[] {
  return receiver.accepted.filter((w) => w.data.id === id && w.type.startsWith(prefix)).map((w) => w.type);
}
