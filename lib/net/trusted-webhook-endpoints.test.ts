import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointUrlProblem } from './endpoint-safety';
import { isTrustedEndpoint, readTrustedWebhookEndpoints } from './trusted-webhook-endpoints';

const dir = mkdtempSync(join(tmpdir(), 'trusted-endpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the operator's list names https origins; anything else is refused naming the setting", () => {
  expect(
    readTrustedWebhookEndpoints({
      WEBHOOK_TRUSTED_ENDPOINTS: ' https://receiver.internal:8443 , https://127.0.0.1:9000/ ',
    }),
  )
    .toEqual({ origins: ['https://receiver.internal:8443', 'https://127.0.0.1:9000'] });
  expect(readTrustedWebhookEndpoints({})).toEqual({ origins: [] });
  expect(() => readTrustedWebhookEndpoints({ WEBHOOK_TRUSTED_ENDPOINTS: 'http://127.0.0.1:9000' })).toThrow(
    /WEBHOOK_TRUSTED_ENDPOINTS lists "http:\/\/127.0.0.1:9000": trusted endpoints use https too/,
  );
  expect(() => readTrustedWebhookEndpoints({ WEBHOOK_TRUSTED_ENDPOINTS: 'https://r.internal/hooks' })).toThrow(
    /name an origin/,
  );
  expect(() => readTrustedWebhookEndpoints({ WEBHOOK_TRUSTED_ENDPOINTS: 'receiver' })).toThrow(/not a URL/);
});

test('the CA file must hold a certificate and go with a list', () => {
  const missing = join(dir, 'missing.pem');
  const empty = join(dir, 'empty.pem');
  writeFileSync(empty, 'not a certificate');
  expect(() =>
    readTrustedWebhookEndpoints({ WEBHOOK_TRUSTED_ENDPOINTS: 'https://r.internal', WEBHOOK_TRUSTED_CA_FILE: missing })
  ).toThrow(/WEBHOOK_TRUSTED_CA_FILE cannot be read/);
  expect(() =>
    readTrustedWebhookEndpoints({ WEBHOOK_TRUSTED_ENDPOINTS: 'https://r.internal', WEBHOOK_TRUSTED_CA_FILE: empty })
  ).toThrow(/WEBHOOK_TRUSTED_CA_FILE holds no PEM certificate/);
});

test('production rules hold for every endpoint but the listed origins', () => {
  const rules = { allowLocal: false, trusted: ['https://127.0.0.1:9000'] };
  expect(isTrustedEndpoint('https://127.0.0.1:9000/hooks?x=1', rules.trusted)).toBe(true);
  expect(endpointUrlProblem('https://127.0.0.1:9000/hooks', rules)).toBeUndefined();
  expect(endpointUrlProblem('https://127.0.0.1:9001/hooks', rules)).toMatch(/must not point at 127.0.0.1/);
  expect(endpointUrlProblem('http://127.0.0.1:9000/hooks', rules)).toBe('must use https');
  expect(endpointUrlProblem('https://localhost:9000/hooks', rules)).toBe('must not point at this machine');
});
