import {
  consoleAsShell,
  expectationOf,
  httpCommand,
  parseDoc,
  parseShape,
  shapeMismatch,
  splitCommands,
} from './doc-examples';

test('commands split at newlines outside quotes, $( ) and continuations, each with its first line', () => {
  const code = [
    "X=$(curl -s $API/a -d '{",
    '  "k": 1}\' | node -pe 1)',
    'curl -s $API/b \\',
    '  -H h   # → 201 {"id":"A:…"}',
    '# a comment',
    'echo "#not a comment"',
  ].join('\n');
  const commands = splitCommands(code, 10);
  expect(commands.map((c) => c.line)).toEqual([10, 12, 15]);
  expect(commands[1].expected).toMatchObject({ status: 201, shape: { kind: 'object' } });
  expect(commands[2].text).toBe('echo "#not a comment"');
});

test('an expectation comment on the line below a command belongs to it; prose does not', () => {
  const [a, b] = splitCommands(
    'curl -s $API/x\n# {"status":"ACTIVE",…}\ncurl -s $API/y   # the answer shows its id',
    1,
  );
  expect(shapeMismatch(a.expected.shape!, { status: 'ACTIVE', other: 1 })).toBeUndefined();
  expect(b.expected).toEqual({});
});

test('statuses, codes and shapes as docs write them', () => {
  expect(expectationOf('HTTP/1.1 405 Method Not Allowed')).toMatchObject({ status: 405 });
  expect(expectationOf('→ 400 INVALID_INPUT: email (format)')).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  expect(expectationOf('→ 422 {"status":422,"details":{"reason":"OTHER_BODY"}}').shape).toBeDefined();
  expect(expectationOf('{"id": oops}').unreadable).toContain('cannot be read');
});

test('shapes: … stands for anything, strings with … or <x> are patterns, arrays need a fitting element', () => {
  const shape = parseShape('{"url":"http://localhost:8080/kyc/<token>","data":[{"code":"EUR",…},…],"n":3,…}')!;
  const fits = { url: 'http://localhost:9/kyc/abc', data: [{ code: 'USD' }, { code: 'EUR', x: 1 }], n: 3, more: true };
  expect(shapeMismatch(shape, fits, '$', (t) => t.replace('8080', '9'))).toBeUndefined();
  expect(shapeMismatch(shape, { ...fits, n: 4 }, '$', (t) => t.replace('8080', '9'))).toContain('$.n');
  expect(shapeMismatch(shape, { ...fits, data: [{ code: 'USD' }] }, '$', (t) => t.replace('8080', '9'))).toContain(
    '$.data[0]',
  );
});

test('markers: a skip needs its reason and a fence right below; a malformed marker is reported', () => {
  const doc = parseDoc(
    'x.md',
    [
      '<!-- doc-test: skip (needs Kubernetes) -->',
      '```sh',
      'kubectl apply',
      '```',
      '<!-- doc-test: skip () -->',
      '```bash',
      'true',
      '```',
      '<!-- doc-test: skipp -->',
      'Prose about `<!-- doc-test: skip (why) -->`.',
    ].join('\n'),
  );
  expect(doc.blocks.map((b) => b.skip)).toEqual(['needs Kubernetes', '']);
  expect(doc.problems).toEqual([
    'x.md:5: a skip marker needs its reason in the parentheses',
    'x.md:9: a doc-test marker must read <!-- doc-test: skip (the reason) '
    + '--> or <!-- doc-test: continues FILE -->: <!-- doc-test: skipp -->',
  ]);
});

test('an http block runs as the equivalent curl, checked against the response it shows', () => {
  const command = httpCommand(
    [
      'POST /2025-10-13/customers HTTP/1.1',
      'Content-Type: application/json',
      '',
      '{"fullName":"O\'Brien"}',
      '',
      'HTTP/1.1 201 Created',
      'Content-Type: application/json',
      '',
      '{"id":"Customer:…"}',
    ].join('\n'),
    7,
  );
  expect(command.line).toBe(7);
  expect(command.text).toBe(
    `curl -s -X POST -u "$AUTH" 'http://localhost:8080/2025-10-13/customers' -H `
      + `'Content-Type: application/json' --data-binary '{"fullName":"O'\\''Brien"}'`,
  );
  expect(command.expected).toMatchObject({ status: 201, shape: { kind: 'object' } });
});

test('a console block: the prompt lines run, the printed JSON below one is what it must answer', () => {
  const [command] = splitCommands(consoleAsShell('$ curl -s -u $AUTH $API/config\n{"id":"Platform:…"}'), 3);
  expect(command).toMatchObject({
    line: 3,
    text: 'curl -s -u $AUTH $API/config',
    expected: { shape: { kind: 'object' } },
  });
});

test('a JSON answer shown over several comment lines reads as one', () => {
  const [command] = splitCommands(
    'curl -s $API/x\n# → 200 {\n#   "status": "ACTIVE",\n#   "id": "X:…"\n# }\necho next',
    1,
  );
  expect(command.expected.unreadable).toBeUndefined();
  expect(shapeMismatch(command.expected.shape!, { status: 'ACTIVE', id: 'X:1' })).toBeUndefined();
  expect(shapeMismatch(command.expected.shape!, { status: 'FROZEN', id: 'X:1' })).toContain('$.status');
});
