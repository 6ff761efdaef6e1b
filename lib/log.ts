/**
 * Structured JSON logs, one object per line. Values under sensitive keys are redacted at any
 * depth, so a careless `log.info('x', {body})` cannot leak a secret, stamp, OTP bundle or key.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const SENSITIVE = new RegExp(
  `(${
    [
      'secret',
      'password',
      'authorization',
      'signature',
      'stamp',
      'token(?!_?id)',
      'otp',
      'privatekey',
      'private_key',
      'bundle',
      'assertion',
      'attestation',
      'sessionsigningkey',
      'cookie',
      'apikey',
      'clientdatajson',
    ].join('|')
  })`,
  'i',
);

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[depth]';
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SENSITIVE.test(k) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  return value;
}

export interface LoggerOptions {
  level?: LogLevel;
  write?: (line: string) => void;
  base?: Record<string, unknown>;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? ((process.env.LOG_LEVEL as LogLevel) || 'info');
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const base = options.base ?? {};
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < (ORDER[level] ?? 20)) return;
    write(
      JSON.stringify({
        time: new Date().toISOString(),
        level: lvl,
        msg,
        ...(redact({ ...base, ...fields }) as object),
      }),
    );
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ level, write, base: { ...base, ...fields } }),
  };
}

/** For tests: a logger that writes nowhere. */
export const silentLogger: Logger = createLogger({ write: () => undefined });
