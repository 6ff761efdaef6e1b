import { ConfigError, readConfig, readRunMode, setting, whyKeysAreRequired } from './config';

const schema = {
  PORT: setting.port(8080),
  MODE: setting.oneOf(['a', 'b'] as const, 'a'),
  TOKEN: setting.string(),
  BROKERS: setting.optionalHostPortList(),
};

test('defaults apply when variables are unset or blank', () => {
  expect(readConfig(schema, { TOKEN: 't', PORT: ' ' })).toEqual({
    PORT: 8080,
    MODE: 'a',
    TOKEN: 't',
    BROKERS: undefined,
  });
});

test.each([
  [{ TOKEN: 't', PORT: 'eighty' }, 'configuration error: PORT must be an integer, got "eighty"'],
  [{ TOKEN: 't', PORT: '70000' }, 'configuration error: PORT must be between 0 and 65535, got 70000'],
  [{ TOKEN: 't', MODE: 'c' }, 'configuration error: MODE must be one of a, b, got "c"'],
  [{}, 'configuration error: TOKEN is required but not set'],
  [{ TOKEN: 't', BROKERS: 'localhost:9092,nope' }, 'configuration error: BROKERS must be host:port, got "nope"'],
])('a bad value stops with one line naming the variable: %j', (env, message) => {
  let error: unknown;
  try {
    readConfig(schema, env);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toBe(message);
  expect((error as Error).message).not.toContain('\n');
});

describe('GRID_MODE and the sandbox switches derived from it', () => {
  const switches = { SIMULATOR: setting.sandboxSwitch() };

  test('the sandbox (the default) turns every switch on unless one is set off', () => {
    expect(readConfig(switches, {})).toEqual({ SIMULATOR: true });
    expect(readConfig(switches, { GRID_MODE: 'sandbox', SIMULATOR: 'false' })).toEqual({ SIMULATOR: false });
  });

  test('production turns every switch off, and refuses one set on, naming it', () => {
    expect(readConfig(switches, { GRID_MODE: 'production' })).toEqual({ SIMULATOR: false });
    expect(readConfig(switches, { GRID_MODE: 'production', SIMULATOR: 'no' })).toEqual({ SIMULATOR: false });
    expect(() => readConfig(switches, { GRID_MODE: 'production', SIMULATOR: 'true' }))
      .toThrow(
        'configuration error: SIMULATOR turns on sandbox behaviour, '
          + 'which GRID_MODE=production refuses: unset it or set it to false',
      );
  });

  test("a simulator's tuning keeps its default in both modes and is refused set in production", () => {
    const tuning = { SIMULATOR_STEP_MS: setting.sandboxOnly(setting.int(2000)) };
    expect(readConfig(tuning, {})).toEqual({ SIMULATOR_STEP_MS: 2000 });
    expect(readConfig(tuning, { SIMULATOR_STEP_MS: '10' })).toEqual({ SIMULATOR_STEP_MS: 10 });
    expect(readConfig(tuning, { GRID_MODE: 'production' })).toEqual({ SIMULATOR_STEP_MS: 2000 });
    expect(() => readConfig(tuning, { GRID_MODE: 'production', SIMULATOR_STEP_MS: '10' }))
      .toThrow(
        'configuration error: SIMULATOR_STEP_MS tunes a sandbox '
          + 'simulator, which GRID_MODE=production refuses: unset it',
      );
  });

  test(
    'a provider choice defaults to the simulator in the sandbox and '
      + 'to a real provider in production, which refuses the simulator',
    () => {
      const choice = {
        PROVIDER: setting.providerChoice(['sandbox', 'real'] as const, { sandbox: 'sandbox', production: 'real' }, [
          'sandbox',
        ]),
      };
      expect(readConfig(choice, {})).toEqual({ PROVIDER: 'sandbox' });
      expect(readConfig(choice, { PROVIDER: 'real' })).toEqual({ PROVIDER: 'real' });
      expect(readConfig(choice, { GRID_MODE: 'production' })).toEqual({ PROVIDER: 'real' });
      expect(() => readConfig(choice, { GRID_MODE: 'production', PROVIDER: 'sandbox' }))
        .toThrow(
          'configuration error: PROVIDER is sandbox, a simulator, which '
            + 'GRID_MODE=production refuses: choose a real provider (real)',
        );
      expect(() => readConfig(choice, { PROVIDER: 'other' })).toThrow(
        'configuration error: PROVIDER must be one of sandbox, real, got "other"',
      );
    },
  );

  test('an unknown mode is refused by name', () => {
    expect(() => readRunMode({ GRID_MODE: 'prod' })).toThrow(
      'configuration error: GRID_MODE must be one of sandbox, production, got "prod"',
    );
  });

  test('keys come from configuration with MongoDB or in production; generated only in the embedded sandbox', () => {
    expect(whyKeysAreRequired({})).toBeUndefined();
    expect(whyKeysAreRequired({ MONGODB_URI: 'mongodb://db' })).toBe('when MONGODB_URI is set');
    expect(whyKeysAreRequired({ GRID_MODE: 'production' })).toBe('with GRID_MODE=production');
  });
});
