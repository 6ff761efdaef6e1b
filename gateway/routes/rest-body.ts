import { AppError, type FieldError } from '../../lib/errors';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the JSON types of a REST body member by member, for the few bodies whose REST shape differs
 * from their request message (SCA proofs carry opaque WebAuthn JSON, card simulations a currency
 * object for a code); every other body is read by lib/contract/rest-message.ts. Every member of the
 * wrong JSON type is listed (dot paths) and `done()` throws them as one INVALID_INPUT.
 */
export class RestBody {
  private readonly errors: FieldError[] = [];

  private constructor(private readonly body: Json, private readonly prefix = '', private readonly parent?: RestBody) {}

  static of(body: unknown): RestBody {
    if (body === undefined) throw AppError.invalidInput('A JSON request body is required');
    if (!isObject(body)) throw AppError.invalidInput('Request body must be a JSON object');
    return new RestBody(body);
  }

  private fail(key: string, message: string): undefined {
    (this.parent ?? this).errors.push({ field: `${this.prefix}${key}`, message });
    return undefined;
  }

  private value(key: string): unknown {
    const v = this.body[key];
    return v === null ? undefined : v;
  }

  string<T extends string = string>(key: string): T | undefined {
    const v = this.value(key);
    if (v === undefined) return undefined;
    return typeof v === 'string' ? (v as T) : this.fail(key, 'must be a string');
  }

  /** An integer (amounts are minor units): a fraction or a value beyond 2^53 is refused here. */
  integer(key: string): number | undefined {
    const v = this.value(key);
    if (v === undefined) return undefined;
    return Number.isSafeInteger(v) ? (v as number) : this.fail(key, 'must be an integer (minor units for amounts)');
  }

  /** A free-form object member, as is. */
  map(key: string): Json | undefined {
    const v = this.value(key);
    if (v === undefined) return undefined;
    return isObject(v) ? v : this.fail(key, 'must be an object');
  }

  /** A nested object read by `read`; absent stays absent. */
  object<T>(key: string, read: (member: RestBody) => T): T | undefined {
    const v = this.map(key);
    return v === undefined ? undefined : read(new RestBody(v, `${this.prefix}${key}.`, this.parent ?? this));
  }

  done(message = 'Invalid request'): void {
    if (this.errors.length) throw AppError.invalidInput(message, this.errors);
  }
}
