/**
 * Configuration from environment variables, validated once at start. A bad value raises
 * ConfigError whose message is one line naming the variable; entry points print it and exit.
 */
export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`configuration error: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export interface Setting<T> {
  read(name: string, env: Env): T;
}

function raw(name: string, env: Env): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function required<T>(parse: (value: string, name: string) => T): Setting<T> {
  return {
    read(name, env) {
      const value = raw(name, env);
      if (value === undefined) throw new ConfigError(name, 'is required but not set');
      return parse(value, name);
    },
  };
}

function withDefault<T>(parse: (value: string, name: string) => T, fallback: T): Setting<T> {
  return {
    read: (name, env) => {
      const v = raw(name, env);
      return v === undefined ? fallback : parse(v, name);
    },
  };
}

function optional<T>(parse: (value: string, name: string) => T): Setting<T | undefined> {
  return {
    read: (name, env) => {
      const v = raw(name, env);
      return v === undefined ? undefined : parse(v, name);
    },
  };
}

const parsers = {
  string: (v: string) => v,
  int(min: number, max: number) {
    return (v: string, name: string) => {
      if (!/^-?\d+$/.test(v)) throw new ConfigError(name, `must be an integer, got "${v}"`);
      const n = Number(v);
      if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
      return n;
    };
  },
  url(protocols: string[]) {
    return (v: string, name: string) => {
      let u: URL;
      try {
        u = new URL(v);
      } catch {
        throw new ConfigError(name, `must be a URL, got "${v}"`);
      }
      if (!protocols.includes(u.protocol)) {
        throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${u.protocol}"`);
      }
      return v;
    };
  },
  hostPort(v: string, name: string) {
    if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(v)) throw new ConfigError(name, `must be host:port, got "${v}"`);
    return v;
  },
  hostPortList(v: string, name: string) {
    return v.split(',').map((part) => parsers.hostPort(part.trim(), name));
  },
  oneOf<T extends string>(values: readonly T[]) {
    return (v: string, name: string) => {
      if (!values.includes(v as T)) throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${v}"`);
      return v as T;
    };
  },
  bool(v: string, name: string) {
    if (['1', 'true', 'yes'].includes(v.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(v.toLowerCase())) return false;
    throw new ConfigError(name, `must be true or false, got "${v}"`);
  },
  hex(bytes: number) {
    return (v: string, name: string) => {
      if (!new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(v)) {
        throw new ConfigError(name, `must be ${bytes} bytes of hex`);
      }
      return v.toLowerCase();
    };
  },
};

/** GRID_MODE: `sandbox` (the default: the one-command start and the README walk) or `production`. */
export const RUN_MODES = ['sandbox', 'production'] as const;
export type RunMode = (typeof RUN_MODES)[number];

export function readRunMode(env: Env): RunMode {
  return withDefault(parsers.oneOf(RUN_MODES), 'sandbox').read('GRID_MODE', env);
}

/**
 * A switch that turns on sandbox behaviour (a fixed code, a simulator, a relaxed check): on by
 * default in the sandbox, off in production, and refused there when set on.
 */
function sandboxSwitch(): Setting<boolean> {
  return {
    read(name, env) {
      const mode = readRunMode(env);
      const v = raw(name, env);
      const on = v === undefined ? mode === 'sandbox' : parsers.bool(v, name);
      if (on && mode === 'production') {
        throw new ConfigError(
          name,
          'turns on sandbox behaviour, which GRID_MODE=production refuses: unset it or set it to false',
        );
      }
      return on;
    },
  };
}

/**
 * The tuning of a sandbox simulator (a step delay of simulated rails or a simulated provider): its
 * default in either mode, and refused when set under GRID_MODE=production, where nothing it tunes
 * may be relied on.
 */
function sandboxOnly<T>(inner: Setting<T>): Setting<T> {
  return {
    read(name, env) {
      if (raw(name, env) !== undefined && readRunMode(env) === 'production') {
        throw new ConfigError(name, 'tunes a sandbox simulator, which GRID_MODE=production refuses: unset it');
      }
      return inner.read(name, env);
    },
  };
}

/**
 * The choice of a provider among real ones and simulated ones: the simulated default in the
 * sandbox, the real default in production, which refuses a simulated one.
 */
function providerChoice<T extends string>(
  values: readonly T[],
  defaults: Record<RunMode, T>,
  simulated: readonly T[],
): Setting<T> {
  return {
    read(name, env) {
      const mode = readRunMode(env);
      const chosen = withDefault(parsers.oneOf(values), defaults[mode]).read(name, env);
      if (mode === 'production' && simulated.includes(chosen)) {
        const real = values.filter((v) => !simulated.includes(v)).join(', ');
        throw new ConfigError(
          name,
          `is ${chosen}, a simulator, which GRID_MODE=production refuses: choose a real provider (${real})`,
        );
      }
      return chosen;
    },
  };
}

/**
 * Why a key must come from configuration rather than be generated for this process: the data it
 * seals outlives the process (MONGODB_URI), or production takes keys from configuration only.
 * Undefined in the embedded sandbox.
 */
export function whyKeysAreRequired(env: Env): string | undefined {
  if (raw('MONGODB_URI', env)) return 'when MONGODB_URI is set';
  if (readRunMode(env) === 'production') return 'with GRID_MODE=production';
  return undefined;
}

export const setting = {
  string: (
    fallback?: string,
  ) => (fallback === undefined ? required(parsers.string) : withDefault(parsers.string, fallback)),
  optionalString: () => optional(parsers.string),
  int: (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => withDefault(parsers.int(min, max), fallback),
  optionalInt: (min = 0, max = Number.MAX_SAFE_INTEGER) => optional(parsers.int(min, max)),
  port: (fallback: number) => withDefault(parsers.int(0, 65535), fallback),
  optionalUrl: (...protocols: string[]) => optional(parsers.url(protocols)),
  hostPort: (
    fallback?: string,
  ) => (fallback === undefined ? required(parsers.hostPort) : withDefault(parsers.hostPort, fallback)),
  optionalHostPortList: () => optional(parsers.hostPortList),
  oneOf: <T extends string>(values: readonly T[], fallback: T) => withDefault(parsers.oneOf(values), fallback),
  bool: (fallback: boolean) => withDefault(parsers.bool, fallback),
  optionalHex: (bytes: number) => optional(parsers.hex(bytes)),
  sandboxSwitch,
  sandboxOnly,
  providerChoice,
};

export type ConfigSchema = Record<string, Setting<unknown>>;
export type ConfigOf<S extends ConfigSchema> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

export function readConfig<S extends ConfigSchema>(schema: S, env: Env = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(schema)) out[name] = s.read(name, env);
  return out as ConfigOf<S>;
}

/** How the all-in-one mode lays the four services out on worker threads. */
export function readServiceThreadLayout(env: Env, cores: number): 'one' | 'each' {
  const { SERVICE_THREADS } = readConfig({
    /**
     * The all-in-one mode's service threads: `one`, the four services on one worker thread (in-process calls and bus
     * between them); `each`, a worker thread per service (calls and events between threads over MessagePorts), so the
     * services use up to four cores; `auto`, `each` on a machine with 4 or more cores, else `one`
     */
    SERVICE_THREADS: setting.oneOf(['auto', 'one', 'each'] as const, 'auto'),
  }, env);
  if (SERVICE_THREADS !== 'auto') return SERVICE_THREADS;
  return cores >= EACH_THREAD_FROM_CORES ? 'each' : 'one';
}

/**
 * From this many cores the services get a thread each: below it the gateway and one services thread
 * already fill the machine, and each hop between threads costs a wake-up (2 cores: 12–40% more CPU per
 * payment with a thread per service, docs/benchmarks.md).
 */
export const EACH_THREAD_FROM_CORES = 4;

/** How the gateway reaches the service threads in the all-in-one mode. */
export function readServicesThreadTransport(env: Env): 'port' | 'grpc' {
  return readConfig({
    /**
     * How the gateway calls the services in the all-in-one mode (`all`): `port`, the same protobuf messages over a
     * MessagePort between its thread and each service's thread; `grpc`, gRPC over loopback HTTP/2 as between separate
     * components. The services call each other over MessagePorts, and their gRPC servers listen, either way (health
     * probes, external clients)
     */
    SERVICES_THREAD_TRANSPORT: setting.oneOf(['port', 'grpc'] as const, 'port'),
  }, env).SERVICES_THREAD_TRANSPORT;
}
