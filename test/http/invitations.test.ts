import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { expectError } from './payments-fixtures';

let sys: TestSystem;
let receiver: WebhookReceiver;
let auth: string;
let inviterUma: string;

beforeAll(async () => {
  sys = await startTestSystem({ env: { WEBHOOK_POLL_INTERVAL_MS: '20' } });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  ({ auth } = await sys.createPlatform());
  expect((await sys.api('/config', { method: 'PATCH', auth, json: { webhookEndpoint: receiver.url } })).status).toBe(
    200,
  );
  const customer = await sys.api('/customers', {
    method: 'POST',
    auth,
    json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'inviter' },
  });
  inviterUma = customer.body.umaAddress;
});
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

const invite = (json: Record<string, unknown> = {}, as = auth) =>
  sys.api('/invitations', { method: 'POST', auth: as, json: { inviterUma, ...json } });
const claim = (code: string, inviteeUma: string) =>
  sys.api(`/invitations/${code}/claim`, { method: 'POST', json: { inviteeUma } });

test("an invitation is created PENDING with its link, the inviter, the amount in the inviter's currency", async () => {
  const created = await invite({ firstName: 'Alice', amountToSend: 12_550, expiresAt: '2099-09-01T14:30:00Z' });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    code: expect.stringMatching(/^[0-9a-f]{12}$/),
    createdAt: expect.any(String),
    url: `https://uma.me/i/${created.body.code}`,
    expiresAt: '2099-09-01T14:30:00.000Z',
    inviterUma,
    status: 'PENDING',
    firstName: 'Alice',
    amountToSend: { amount: 12_550, currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 } },
  });
  expect((await sys.api(`/invitations/${created.body.code}`)).body).toEqual(created.body);
});

test('create errors: INVITATIONS_NOT_CONFIGURED (no webhook endpoint), INVALID_UMA_ADDRESS, INPUT', async () => {
  const bare = await sys.createPlatform();
  const bareCustomer = await sys.api('/customers', {
    method: 'POST',
    auth: bare.auth,
    json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'bare' },
  });
  expectError(await invite({ inviterUma: bareCustomer.body.umaAddress }, bare.auth), 400, 'INVITATIONS_NOT_CONFIGURED');
  expectError(await invite({ inviterUma: 'not-an-address' }), 400, 'INVALID_UMA_ADDRESS');
  expectError(await invite({ inviterUma: '$nobody@uma.sandbox.local' }), 400, 'INVALID_UMA_ADDRESS');
  expectError(await invite({ inviterUma: bareCustomer.body.umaAddress }), 400, 'INVALID_UMA_ADDRESS');
  const invalid = await invite({ amountToSend: 0, firstName: '' });
  expectError(invalid, 400, 'INVALID_INPUT');
  expect(invalid.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'amountToSend',
    'firstName',
  ]);
  const past = await invite({ expiresAt: '2001-01-01T00:00:00Z' });
  expectError(past, 400, 'INVALID_INPUT');
  expect(past.body.details.errors).toEqual([{ field: 'expiresAt', message: 'must be in the future' }]);
  expectError(await sys.api('/invitations', { method: 'POST', auth, json: {} }), 400, 'INVALID_INPUT');
});

test('any platform reads an invitation by its code; an unknown code is INVITATION_NOT_FOUND', async () => {
  const { code } = (await invite()).body;
  expect((await sys.api(`/invitations/${code}`)).body).toMatchObject({ code, status: 'PENDING' });
  expectError(await sys.api('/invitations/000000000000'), 404, 'INVITATION_NOT_FOUND');
  expectError(await claim('000000000000', '$bob@other.example'), 404, 'INVITATION_NOT_FOUND');
  expectError(await sys.api('/invitations/000000000000/cancel', { method: 'POST', auth }), 404, 'INVITATION_NOT_FOUND');
});

test(
  'concurrent claims of one invitation: exactly one succeeds, '
    + 'the others are INVITATION_ALREADY_CLAIMED, one webhook',
  async () => {
    const { code } = (await invite({ amountToSend: 500 })).body;
    const invitees = Array.from({ length: 12 }, (_, i) => `$invitee${i}@other.example`);
    const results = await Promise.all(invitees.map((uma) => claim(code, uma)));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of results.filter((r) => r.status !== 200)) expectError(lost, 400, 'INVITATION_ALREADY_CLAIMED');
    const winner = won[0].body;
    expect(winner).toMatchObject({
      code,
      status: 'CLAIMED',
      inviteeUma: expect.stringMatching(/^\$invitee\d+@other\.example$/),
      claimedAt: expect.any(String),
    });
    expect((await sys.api(`/invitations/${code}`)).body).toEqual(winner);
    await receiver.waitFor(() =>
      receiver.accepted.some((w) => w.type === 'INVITATION.CLAIMED' && w.data.code === code)
    );
    await new Promise((r) => setTimeout(r, 200));
    const webhooks = receiver.accepted.filter((w) => w.type === 'INVITATION.CLAIMED' && w.data.code === code);
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0].data).toEqual(winner);
    expectError(
      await sys.api(`/invitations/${code}/cancel`, { method: 'POST', auth }),
      400,
      'INVITATION_ALREADY_CLAIMED',
    );
  },
);

test("claim errors: INVALID_UMA_ADDRESS for a malformed or the inviter's own address", async () => {
  const { code } = (await invite()).body;
  expectError(await claim(code, 'bob'), 400, 'INVALID_UMA_ADDRESS');
  expectError(await claim(code, inviterUma), 400, 'INVALID_UMA_ADDRESS');
  expectError(await sys.api(`/invitations/${code}/claim`, { method: 'POST', json: {} }), 400, 'INVALID_INPUT');
  expect((await sys.api(`/invitations/${code}`)).body.status).toBe('PENDING');
});

test('only the creating platform cancels; a cancelled invitation cannot be claimed or cancelled again', async () => {
  const { code } = (await invite()).body;
  expectError(await sys.api(`/invitations/${code}/cancel`, { method: 'POST' }), 403, 'FORBIDDEN');
  const cancelled = await sys.api(`/invitations/${code}/cancel`, { method: 'POST', auth });
  expect(cancelled.status).toBe(200);
  expect(cancelled.body.status).toBe('CANCELLED');
  expectError(await claim(code, '$late@other.example'), 400, 'INVITATION_CANCELLED');
  expectError(await sys.api(`/invitations/${code}/cancel`, { method: 'POST', auth }), 400, 'INVITATION_CANCELLED');
});

test('an invitation past its expiry reads EXPIRED and can no longer be claimed', async () => {
  const { code } = (await invite({ expiresAt: new Date(Date.now() + 1_000).toISOString() })).body;
  await new Promise((r) => setTimeout(r, 1_100));
  expect((await sys.api(`/invitations/${code}`)).body.status).toBe('EXPIRED');
  expectError(await claim(code, '$late@other.example'), 400, 'INVITATION_EXPIRED');
  expectError(await sys.api(`/invitations/${code}/cancel`, { method: 'POST', auth }), 400, 'INVITATION_EXPIRED');
});
