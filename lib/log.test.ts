import { createLogger } from './log';

test('sensitive keys are redacted at any depth; other fields are kept', () => {
  const lines: string[] = [];
  const log = createLogger({ write: (l) => lines.push(l) });
  log.info('x', {
    tokenId: 'visible-id',
    oidcToken: 'jwt',
    body: { clientSecret: 's3cret', nested: [{ encryptedOtpBundle: 'b' }] },
    headers: { authorization: 'Basic abc' },
  });
  const entry = JSON.parse(lines[0]);
  expect(lines[0]).not.toMatch(/s3cret|Basic abc|"b"/);
  expect(entry.body.clientSecret).toBe('[redacted]');
  expect(entry.body.nested[0].encryptedOtpBundle).toBe('[redacted]');
  expect(entry.headers.authorization).toBe('[redacted]');
  expect(entry.msg).toBe('x');
  expect(entry.tokenId).toBe('visible-id');
  expect(entry.oidcToken).toBe('[redacted]');
});

test('levels below the threshold are dropped', () => {
  const lines: string[] = [];
  const log = createLogger({ level: 'warn', write: (l) => lines.push(l) });
  log.info('no');
  log.warn('yes');
  expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['yes']);
});
