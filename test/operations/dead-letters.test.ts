import { randomBytes } from 'node:crypto';
import { startMetrics, type MetricsEndpoint } from '../../lib/metrics';
import { runDeadLettersCommand } from '../../lib/bus/dead-letters-command';
import { newEvent } from '../../lib/bus/outbox';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { approvedCardholder, cardWhen } from '../http/card-fixtures';
import { fund } from '../http/payments-fixtures';

/**
 * One event the webhook consumer cannot handle (it names no platform: every attempt fails) on the
 * stream of a real account: the consumer gives up after EVENT_HANDLER_ATTEMPTS, dead-letters it
 * with its metric, and the account's next events and the card webhooks go on. The operators'
 * command lists, shows and replays it through the notifications service's DeadLetterService.
 */
const INTERNAL_TOKEN = randomBytes(32).toString('base64url');
const GROUP = 'notifications-webhooks.accounts.events.v1';
let metrics: MetricsEndpoint;
let sys: TestSystem;
let receiver: WebhookReceiver;

beforeAll(async () => {
  metrics = await startMetrics({ serviceName: 'grid-payments', port: 0, host: '127.0.0.1' });
  sys = await startTestSystem({
    env: {
      INTERNAL_TOKEN,
      EVENT_HANDLER_ATTEMPTS: '3',
      EVENT_RETRY_BASE_MS: '20',
      ACCOUNTS_KYC_STEP_MS: '30',
      WEBHOOK_POLL_INTERVAL_MS: '20',
    },
  });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await sys?.stop();
  await receiver?.close();
  await metrics?.stop();
});

async function scraped(name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
  const line = text.split('\n').find((l) =>
    l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`))
  );
  return line ? Number(line.split(' ').pop()) : 0;
}

async function command(...args: string[]): Promise<{ code: number; out: string }> {
  const address = sys.system.services.find((s) => s.name === 'notifications')!.address;
  const lines: string[] = [];
  const code = await runDeadLettersCommand([address, ...args], { INTERNAL_TOKEN }, (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}

test(
  "a poisoned balance event is dead-lettered with its metric; the account's next "
    + 'events and the card webhooks are delivered; operators list, show and replay it',
  async () => {
    const holder = await approvedCardholder(sys);
    const card = await sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.usdAccountId] },
    });
    await cardWhen(sys, card.body.id, (c) => c.state === 'ACTIVE');
    const before = await scraped('events_dead_lettered_total', {
      group: GROUP,
      type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
    });

    // On the account's own stream (its aggregate), ahead of its next balance events: an event whose id
    // is not a string, which the webhook recorder cannot turn into a delivery id however often it tries.
    const poisonId = 40_000 + Math.floor(Math.random() * 1_000);
    const balanceUpdated = newEvent({
      type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
      version: 1,
      platformId: sys.sandbox.platformId,
      aggregateId: holder.usdAccountId,
      data: { accountId: holder.usdAccountId, currency: 'USD', change: 1 },
    });
    const poisoned = { ...balanceUpdated, id: poisonId as never };
    await sys.system.bus.publish('accounts.events.v1', [poisoned]);
    await fund(sys, holder.usdAccountId, 5_000);
    await receiver.waitFor(
      () =>
        receiver.accepted.some((w) =>
          w.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && w.data.id === holder.usdAccountId
        ),
      30_000,
    );
    const auth = await sys.api(`/sandbox/cards/${card.body.id}/simulate/authorization`, {
      method: 'POST',
      json: { amount: 1_000, currency: { code: 'USD' }, merchant: { descriptor: 'CORNER SHOP' } },
    });
    expect(auth.status).toBe(202);
    await receiver.waitFor(
      () =>
        receiver.accepted.some((w) =>
          w.type === 'CARD_TRANSACTION.AUTHORIZED' && w.data.issuerTransactionToken === auth.body.issuerTransactionToken
        ),
      30_000,
    );

    expect(await scraped('events_dead_lettered_total', { group: GROUP, type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED' }))
      .toBe(before + 1);
    expect(await scraped('events_dead_letters', { group: GROUP })).toBe(1);
    const id = `${GROUP}:${poisoned.id}`;

    const listed = await command('list', 'DEAD');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toEqual([
      expect.objectContaining({
        id,
        topic: 'accounts.events.v1',
        group: GROUP,
        eventId: String(poisonId),
        status: 'DEAD',
        attempts: 3,
      }),
    ]);
    const shown = await command('show', id);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({
      id,
      event: { id: poisonId, aggregateId: holder.usdAccountId, data: { change: 1 } },
      lastError: expect.stringContaining('"data" argument'),
    });

    // Still unprocessable: the replay fails, says why, and the letter stays dead.
    const replayed = await command('replay', id);
    expect(replayed.code).toBe(1);
    expect(JSON.parse(replayed.out)).toMatchObject({
      id,
      status: 'DEAD',
      attempts: 4,
      lastError: expect.stringContaining('"data" argument'),
    });
    expect(JSON.parse((await command('show', id)).out)).toMatchObject({ status: 'DEAD', attempts: 4 });
    expect((await command('show', `${GROUP}:Event:00000000-0000-4000-8000-000000000000`)).out).toContain(
      'REFERENCE_NOT_FOUND',
    );
    expect(await command('list', 'LOST')).toEqual({ code: 1, out: expect.stringContaining('INVALID_INPUT') });
    expect((await command('purge')).code).toBe(2);
  },
  120_000,
);
