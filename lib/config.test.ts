import { ConfigError, readConfig, setting } from './config';

const schema = {
  PORT: setting.port(8080),
  MODE: setting.oneOf(['a', 'b'] as const, 'a'),
  TOKEN: setting.string(),
  BROKERS: setting.optionalHostPortList(),
};

test('defaults apply when variables are unset or blank', () => {
  expect(readConfig(schema, { TOKEN: 't', PORT: ' ' })).toEqual({ PORT: 8080, MODE: 'a', TOKEN: 't', BROKERS: undefined });
});

test.each([
  [{ TOKEN: 't', PORT: 'eighty' }, 'configuration error: PORT must be an integer, got "eighty"'],
  [{ TOKEN: 't', PORT: '70000' }, 'configuration error: PORT must be between 0 and 65535, got 70000'],
  [{ TOKEN: 't', MODE: 'c' }, 'configuration error: MODE must be one of a, b, got "c"'],
  [{}, 'configuration error: TOKEN is required but not set'],
  [{ TOKEN: 't', BROKERS: 'localhost:9092,nope' }, 'configuration error: BROKERS must be host:port, got "nope"'],
])('a bad value stops with one line naming the variable: %j', (env, message) => {
  let error: unknown;
  try { readConfig(schema, env); } catch (e) { error = e; }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toBe(message);
  expect((error as Error).message).not.toContain('\n');
});
