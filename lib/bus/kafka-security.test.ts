import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestCertificates, type TestCertificates } from '../../test/kafka-mock/test-certificates';
import { ConfigError } from '../config';
import { describeKafkaSecurity, readKafkaSecurity } from './kafka-security';

let certs: TestCertificates;
beforeAll(() => {
  certs = makeTestCertificates();
});
afterAll(() => rmSync(certs.dir, { recursive: true, force: true }));

const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    readKafkaSecurity(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
};

test('nothing set: plaintext without authentication', () => {
  expect(readKafkaSecurity({})).toEqual({});
  expect(describeKafkaSecurity(readKafkaSecurity({}))).toBe('plaintext');
});

test(
  'KAFKA_TLS alone verifies the brokers against the system CAs; a '
    + 'CA file replaces them; a client certificate comes with its key',
  () => {
    expect(readKafkaSecurity({ KAFKA_TLS: 'true' })).toEqual({ ssl: { rejectUnauthorized: true } });
    const withCa = readKafkaSecurity({ KAFKA_TLS_CA_FILE: certs.files.ca });
    expect(withCa.ssl).toEqual({ rejectUnauthorized: true, ca: certs.pem('ca').trim() });
    const mutual = readKafkaSecurity({
      KAFKA_TLS_CA_FILE: certs.files.ca,
      KAFKA_TLS_CERT_FILE: certs.files.clientCert,
      KAFKA_TLS_KEY_FILE: certs.files.clientKey,
    });
    expect(mutual.ssl).toMatchObject({ cert: certs.pem('clientCert').trim(), key: certs.pem('clientKey') });
    expect(describeKafkaSecurity(mutual)).toBe('mutual TLS');
  },
);

test('SASL: the mechanism in any case, with its credentials; PLAIN only over TLS', () => {
  const scram = readKafkaSecurity({
    KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
    KAFKA_SASL_USERNAME: 'grid',
    KAFKA_SASL_PASSWORD: 'pw',
  });
  expect(scram.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'grid', password: 'pw' });
  expect(describeKafkaSecurity(scram)).toBe('plaintext, SASL scram-sha-512');
  const plain = readKafkaSecurity({
    KAFKA_TLS: 'true',
    KAFKA_SASL_MECHANISM: 'plain',
    KAFKA_SASL_USERNAME: 'grid',
    KAFKA_SASL_PASSWORD: 'pw',
  });
  expect(describeKafkaSecurity(plain)).toBe('TLS, SASL plain');
  expect(JSON.stringify(describeKafkaSecurity(plain))).not.toContain('pw');
});

test('each bad setting is refused before anything connects, naming the setting', () => {
  const badPem = join(certs.dir, 'not-a-certificate.pem');
  writeFileSync(badPem, '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
  const empty = join(certs.dir, 'empty.pem');
  writeFileSync(empty, 'nothing here\n');
  expect(refusal({ KAFKA_TLS: 'maybe' })).toBe('configuration error: KAFKA_TLS must be true or false, got "maybe"');
  expect(refusal({ KAFKA_TLS_CA_FILE: join(certs.dir, 'missing.pem') })).toMatch(
    /^configuration error: KAFKA_TLS_CA_FILE cannot be read \(ENOENT: /,
  );
  expect(refusal({ KAFKA_TLS_CA_FILE: empty })).toMatch(
    /^configuration error: KAFKA_TLS_CA_FILE holds no PEM certificate/,
  );
  expect(refusal({ KAFKA_TLS_CA_FILE: badPem })).toMatch(
    /^configuration error: KAFKA_TLS_CA_FILE holds a certificate that does not parse/,
  );
  expect(refusal({ KAFKA_TLS_CERT_FILE: certs.files.clientCert })).toMatch(
    /^configuration error: KAFKA_TLS_KEY_FILE is required with KAFKA_TLS_CERT_FILE/,
  );
  expect(refusal({ KAFKA_TLS_KEY_FILE: certs.files.clientKey })).toMatch(
    /^configuration error: KAFKA_TLS_CERT_FILE is required with KAFKA_TLS_KEY_FILE/,
  );
  expect(refusal({ KAFKA_TLS_CERT_FILE: certs.files.clientCert, KAFKA_TLS_KEY_FILE: certs.files.clientCert })).toMatch(
    /^configuration error: KAFKA_TLS_KEY_FILE holds no PEM private key/,
  );
  expect(refusal({ KAFKA_TLS_CERT_FILE: certs.files.clientCert, KAFKA_TLS_KEY_FILE: certs.files.serverKey }))
    .toBe('configuration error: KAFKA_TLS_KEY_FILE is not the private key of the certificate in KAFKA_TLS_CERT_FILE');
  expect(refusal({ KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }))
    .toBe('configuration error: KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512, got "gssapi"');
  expect(refusal({ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_PASSWORD: 'p' })).toMatch(
    /^configuration error: KAFKA_SASL_USERNAME is required/,
  );
  expect(refusal({ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'u' })).toMatch(
    /^configuration error: KAFKA_SASL_PASSWORD is required/,
  );
  expect(refusal({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toMatch(
    /^configuration error: KAFKA_SASL_MECHANISM plain sends the password in clear/,
  );
  expect(refusal({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toMatch(
    /^configuration error: KAFKA_SASL_MECHANISM is required with/,
  );
});
