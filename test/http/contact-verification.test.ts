import { startTestSystem, type TestSystem } from '../system-harness';
import { createCustomer } from './kyc-fixtures';
import { expectError } from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: { ACCOUNTS_CONTACT_CODE_INTERVAL_MS: '60000', ACCOUNTS_CONTACT_CODE_MAX_ATTEMPTS: '3' },
  });
});
afterAll(() => sys.stop());

const euCustomer = (extra: Record<string, unknown> = {}) =>
  createCustomer(sys, {
    region: 'DE',
    fullName: 'Erika Mustermann',
    email: `erika-${Date.now()}-${Math.random()}@example.com`,
    phoneNumber: '+4915112345678',
    ...extra,
  });

test('only customers of a region that requires it carry contactVerification; the others answer 409', async () => {
  const eu = await euCustomer();
  expect(eu.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
  const us = await createCustomer(sys, { region: 'US', email: 'us@example.com' });
  expect(us).not.toHaveProperty('contactVerification');
  expectError(await sys.api(`/customers/${us.id}/verify-email`, { method: 'POST' }), 409, 'CONFLICT');
  expectError(
    await sys.api(`/customers/${us.id}/verify-phone/confirm`, { method: 'POST', json: { code: '123456' } }),
    409,
    'CONFLICT',
  );
  expectError(
    await sys.api('/customers/Customer:00000000-0000-4000-8000-000000000000/verify-email', { method: 'POST' }),
    404,
    'USER_NOT_FOUND',
  );
});

test('KYC cannot start before both channels are VERIFIED; the sandbox code 123456 verifies each, once', async () => {
  const eu = await euCustomer();
  expectError(await sys.api(`/customers/${eu.id}/kyc-link`, { method: 'POST' }), 409, 'CONFLICT');
  expectError(await sys.api('/verifications', { method: 'POST', json: { customerId: eu.id } }), 409, 'CONFLICT');

  expect((await sys.api(`/customers/${eu.id}/verify-email`, { method: 'POST' })).status).toBe(204);
  // The code went through the message-delivery port (the sandbox's inspectable outbox).
  const sent = await sys.system.peers.delivery.listSentMessages({ to: eu.email }, {});
  expect(sent.messages.map((m) => m.body)).toEqual([expect.stringContaining('123456')]);

  const wrong = await sys.api(`/customers/${eu.id}/verify-email/confirm`, { method: 'POST', json: { code: '000000' } });
  expectError(wrong, 400, 'INVALID_INPUT');
  expect(wrong.body.details.errors.map((e: any) => e.field)).toEqual(['code']);
  const confirmed = await sys.api(`/customers/${eu.id}/verify-email/confirm`, {
    method: 'POST',
    json: { code: '123456' },
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
  // Single use, and an already verified channel is 409.
  expectError(
    await sys.api(`/customers/${eu.id}/verify-email/confirm`, { method: 'POST', json: { code: '123456' } }),
    409,
    'CONFLICT',
  );
  expectError(await sys.api(`/customers/${eu.id}/kyc-link`, { method: 'POST' }), 409, 'CONFLICT');

  expect((await sys.api(`/customers/${eu.id}/verify-phone`, { method: 'POST' })).status).toBe(204);
  expect(
    (await sys.api(`/customers/${eu.id}/verify-phone/confirm`, { method: 'POST', json: { code: '123456' } })).body
      .contactVerification,
  )
    .toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
  expect((await sys.api(`/customers/${eu.id}/kyc-link`, { method: 'POST' })).status).toBe(201);

  // A new phone number has to be verified again.
  const changed = await sys.api(`/customers/${eu.id}`, {
    method: 'PATCH',
    json: { customerType: 'INDIVIDUAL', phoneNumber: '+4915187654321' },
  });
  expect(changed.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
});

test('a second code within the interval is 429 with Retry-After; a code tried too often is used up', async () => {
  const eu = await euCustomer();
  expect((await sys.api(`/customers/${eu.id}/verify-phone`, { method: 'POST' })).status).toBe(204);
  const again = await sys.api(`/customers/${eu.id}/verify-phone`, { method: 'POST' });
  expectError(again, 429, 'RATE_LIMITED');
  expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
  for (let i = 0; i < 3; i++) {
    expectError(
      await sys.api(`/customers/${eu.id}/verify-phone/confirm`, { method: 'POST', json: { code: '111111' } }),
      400,
      'INVALID_INPUT',
    );
  }
  const locked = await sys.api(`/customers/${eu.id}/verify-phone/confirm`, {
    method: 'POST',
    json: { code: '123456' },
  });
  expectError(locked, 400, 'INVALID_INPUT');
  expect(locked.body.details.errors[0].message).toMatch(/too often/);
  const malformed = await sys.api(`/customers/${eu.id}/verify-phone/confirm`, {
    method: 'POST',
    json: { code: 123456 },
  });
  expectError(malformed, 400, 'INVALID_INPUT');
  expect(malformed.body.details.errors.map((e: any) => e.field)).toEqual(['code']);
});

test('a customer without the contact to verify is refused with MISSING_MANDATORY_USER_INFO', async () => {
  const eu = await createCustomer(sys, { region: 'FR', fullName: 'Sans Email' });
  expectError(
    await sys.api(`/customers/${eu.id}/verify-email`, { method: 'POST' }),
    400,
    'MISSING_MANDATORY_USER_INFO',
  );
});
