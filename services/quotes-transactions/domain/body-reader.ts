import { AppError, type FieldError } from '../../../lib/errors';
import { idPattern, isId, type IdType } from '../../../lib/ids';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a JSON body member by member (dot paths), collecting every problem; `done()` then throws
 * one INVALID_INPUT listing them all, so a client learns every failure in one response.
 */
export class BodyReader {
  readonly errors: FieldError[] = [];

  constructor(private readonly body: Json) {}

  static of(body: unknown): BodyReader {
    if (!isObject(body)) throw AppError.invalidInput('Request body must be a JSON object');
    return new BodyReader(body);
  }

  raw(path: string): unknown {
    let value: unknown = this.body;
    for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
    return value === null ? undefined : value;
  }

  fail(field: string, message: string, constraint?: FieldError['constraint']): undefined {
    this.errors.push({ field, message, ...(constraint ? { constraint } : {}) });
    return undefined;
  }

  object(path: string, required = false): Json | undefined {
    const v = this.raw(path);
    if (v === undefined) return required ? this.fail(path, 'is required') : undefined;
    return isObject(v) ? v : this.fail(path, 'must be an object');
  }

  string(path: string, options: { required?: boolean; maxLength?: number; enum?: readonly string[]; pattern?: string } = {}): string | undefined {
    const v = this.raw(path);
    if (v === undefined) return options.required ? this.fail(path, 'is required') : undefined;
    if (typeof v !== 'string' || (options.required && v === '')) return this.fail(path, 'must be a non-empty string');
    if (options.maxLength !== undefined && v.length > options.maxLength) return this.fail(path, `must be at most ${options.maxLength} characters`, { maxLength: options.maxLength });
    if (options.enum && !options.enum.includes(v)) return this.fail(path, `must be one of ${options.enum.join(', ')}`, { enum: [...options.enum] });
    if (options.pattern && !new RegExp(options.pattern).test(v)) return this.fail(path, 'has an invalid format', { pattern: options.pattern });
    return v;
  }

  id(path: string, types: readonly IdType[], required = true): string | undefined {
    const v = this.string(path, { required });
    if (v === undefined) return undefined;
    if (types.some((t) => isId(t, v))) return v;
    return this.fail(path, `must be a ${types.join(' or ')} id`, { pattern: types.map(idPattern).join('|') });
  }

  /** Any number; the caller decides what a bad amount means. */
  number(path: string, required = false): number | undefined {
    const v = this.raw(path);
    if (v === undefined) return required ? this.fail(path, 'is required') : undefined;
    return typeof v === 'number' && Number.isFinite(v) ? v : this.fail(path, 'must be a number');
  }

  integer(path: string, options: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const v = this.number(path, options.required);
    if (v === undefined) return undefined;
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
    if (!Number.isSafeInteger(v) || v < min || v > max) return this.fail(path, `must be an integer between ${min} and ${max}`);
    return v;
  }

  boolean(path: string): boolean | undefined {
    const v = this.raw(path);
    if (v === undefined) return undefined;
    return typeof v === 'boolean' ? v : this.fail(path, 'must be true or false');
  }

  done(message = 'Invalid request'): void {
    if (this.errors.length) throw AppError.invalidInput(message, this.errors);
  }
}
