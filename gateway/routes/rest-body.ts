import { AppError, type FieldError } from '../../lib/errors';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the JSON types of a REST body into a request message: every member of the wrong JSON type
 * is listed (dot paths) and `done()` throws them as one INVALID_INPUT. Only types are checked here;
 * what the values mean (required members, enums, formats, amounts) the service decides.
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

  boolean(key: string): boolean | undefined {
    const v = this.value(key);
    if (v === undefined) return undefined;
    return typeof v === 'boolean' ? v : this.fail(key, 'must be true or false');
  }

  /** An array of strings; absent is empty (a repeated member has no absence). */
  strings(key: string): string[] {
    const v = this.value(key);
    if (v === undefined) return [];
    if (!Array.isArray(v)) return this.fail(key, 'must be an array') ?? [];
    v.forEach((item, i) => typeof item !== 'string' && this.fail(`${key}[${i}]`, 'must be a string'));
    return v.filter((item): item is string => typeof item === 'string');
  }

  /** A list whose presence matters (a StringList message): absent stays absent, `[]` is an empty list. */
  stringList(key: string): { values: string[] } | undefined {
    return this.value(key) === undefined ? undefined : { values: this.strings(key) };
  }

  /** Whether the member is given, even as null. */
  has(key: string): boolean {
    return this.body[key] !== undefined;
  }

  /** An integer member that may be given as null (a NullableAmount message): absent stays absent, null is `{}`. */
  nullableInteger(key: string): { value?: number } | undefined {
    if (this.body[key] === undefined) return undefined;
    return this.body[key] === null ? {} : { value: this.integer(key) };
  }

  /** A free-form object member, as is. */
  map(key: string): Json | undefined {
    const v = this.value(key);
    if (v === undefined) return undefined;
    return isObject(v) ? v : this.fail(key, 'must be an object');
  }

  /** A list of objects, each read by `read`, as a list message (absent stays absent; `[]` is an empty list). */
  objectList<T>(key: string, read: (item: RestBody) => T): { values: T[] } | undefined {
    const v = this.value(key);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return this.fail(key, 'must be an array');
    const values = v.flatMap((item, i) => {
      if (!isObject(item)) return this.fail(`${key}[${i}]`, 'must be an object') ?? [];
      return [read(new RestBody(item, `${this.prefix}${key}[${i}].`, this.parent ?? this))];
    });
    return { values };
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
