import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  /**
   * PEM files: the test CA, the broker's certificate for `localhost` and its key, a client certificate and key, and a
   * second CA that signed neither.
   */
  files: { ca: string; serverCert: string; serverKey: string; clientCert: string; clientKey: string; otherCa: string };
  pem(file: keyof TestCertificates['files']): string;
}

/** A throwaway CA with a broker and a client certificate, made with the machine's openssl at test time. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) =>
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ca = (name: string) =>
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.crt`),
    );
  ca('test-ca');
  ca('other-ca');
  const issue = (name: string, subject: string, extensions: string) => {
    openssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-subj',
      `/CN=${subject}`,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.csr`),
    );
    writeFileSync(at(`${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('test-ca.crt'),
      '-CAkey',
      at('test-ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      at(`${name}.ext`),
      '-out',
      at(`${name}.crt`),
    );
  };
  issue('broker', 'localhost', 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n');
  issue('client', 'grid-payments', 'extendedKeyUsage=clientAuth\n');
  const files = {
    ca: at('test-ca.crt'),
    serverCert: at('broker.crt'),
    serverKey: at('broker.key'),
    clientCert: at('client.crt'),
    clientKey: at('client.key'),
    otherCa: at('other-ca.crt'),
  };
  return { dir, files, pem: (file) => readFileSync(files[file], 'utf8') };
}
