import type { FieldError } from '../../../lib/errors';
import { AppError } from '../../../lib/errors';
import { FORMAT_CHECKS, type FormatName } from '../../../lib/value-formats';

export type Constraint = NonNullable<FieldError['constraint']>;
export type JsonObject = Record<string, unknown>;

export interface StringRules {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  /** Reported to the client as its source (JavaScript flavour). */
  pattern?: RegExp;
  format?: FormatName;
  /** A further rule (checksum, calendar date...): returns the problem, or undefined when valid. */
  check?: (value: string) => string | undefined;
}

function lengthConstraint(rules: StringRules): Constraint {
  const c: Constraint = {};
  if (rules.minLength !== undefined) c.minLength = rules.minLength;
  if (rules.maxLength !== undefined) c.maxLength = rules.maxLength;
  return c;
}

function describeLength(rules: StringRules): string {
  const { minLength: min, maxLength: max } = rules;
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min} characters` : `between ${min} and ${max} characters`;
  return min !== undefined ? `at least ${min} characters` : `at most ${max} characters`;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads an untyped JSON body field by field and collects one FieldError per invalid field, so a
 * caller learns every failure in one response. Each reader returns the value only when valid.
 */
export class FieldReader {
  readonly errors: FieldError[] = [];

  fail(field: string, message: string, constraint?: Constraint): void {
    this.errors.push(constraint ? { field, message, constraint } : { field, message });
  }

  has(obj: JsonObject, key: string): boolean {
    return obj[key] !== undefined;
  }

  object(obj: JsonObject, key: string, field: string, required = false): JsonObject | undefined {
    const value = obj[key];
    if (value === undefined) {
      if (required) this.fail(field, 'is required');
      return undefined;
    }
    if (!isJsonObject(value)) {
      this.fail(field, 'must be an object');
      return undefined;
    }
    return value;
  }

  string(obj: JsonObject, key: string, field: string, rules: StringRules = {}): string | undefined {
    const value = obj[key];
    if (value === undefined) {
      if (rules.required) this.fail(field, 'is required');
      return undefined;
    }
    return this.stringValue(value, field, rules);
  }

  stringValue(value: unknown, field: string, rules: StringRules = {}): string | undefined {
    if (typeof value !== 'string') {
      this.fail(field, 'must be a string');
      return undefined;
    }
    const length = [...value].length;
    if ((rules.minLength !== undefined && length < rules.minLength) || (rules.maxLength !== undefined && length > rules.maxLength)) {
      this.fail(field, `must be ${describeLength(rules)}`, lengthConstraint(rules));
      return undefined;
    }
    if (rules.pattern && !rules.pattern.test(value)) {
      const constraint: Constraint = { pattern: rules.pattern.source };
      if (rules.format) constraint.format = rules.format;
      this.fail(field, `must match ${rules.pattern.source}`, constraint);
      return undefined;
    }
    if (rules.format && !FORMAT_CHECKS[rules.format].test(value)) {
      this.fail(field, FORMAT_CHECKS[rules.format].message, { format: rules.format });
      return undefined;
    }
    const problem = rules.check?.(value);
    if (problem) {
      this.fail(field, problem);
      return undefined;
    }
    return value;
  }

  enumValue<T extends string>(obj: JsonObject, key: string, field: string, values: readonly T[], required = false): T | undefined {
    const value = obj[key];
    if (value === undefined) {
      if (required) this.fail(field, 'is required', { enum: [...values] });
      return undefined;
    }
    return this.enumItem(value, field, values);
  }

  enumItem<T extends string>(value: unknown, field: string, values: readonly T[]): T | undefined {
    if (typeof value !== 'string' || !values.includes(value as T)) {
      this.fail(field, `must be one of ${values.join(', ')}`, { enum: [...values] });
      return undefined;
    }
    return value as T;
  }

  /** A whole number within [min, max] (safe-integer bounds by default). */
  integer(obj: JsonObject, key: string, field: string, rules: { min?: number; max?: number; required?: boolean } = {}): number | undefined {
    const value = obj[key];
    if (value === undefined) {
      if (rules.required) this.fail(field, 'is required');
      return undefined;
    }
    const min = rules.min ?? Number.MIN_SAFE_INTEGER;
    const max = rules.max ?? Number.MAX_SAFE_INTEGER;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      this.fail(field, `must be an integer between ${min} and ${max}`);
      return undefined;
    }
    return value;
  }

  boolean(obj: JsonObject, key: string, field: string, required = false): boolean | undefined {
    const value = obj[key];
    if (value === undefined) {
      if (required) this.fail(field, 'is required');
      return undefined;
    }
    if (typeof value !== 'boolean') {
      this.fail(field, 'must be a boolean');
      return undefined;
    }
    return value;
  }

  /** An array whose items are each read by `item`; invalid items are reported as `field[i]`. */
  array<T>(obj: JsonObject, key: string, field: string, item: (value: unknown, itemField: string) => T | undefined): T[] | undefined {
    const value = obj[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) {
      this.fail(field, 'must be an array');
      return undefined;
    }
    const before = this.errors.length;
    const out = value.map((v, i) => item(v, `${field}[${i}]`));
    return this.errors.length === before ? (out as T[]) : undefined;
  }

  enumArray<T extends string>(obj: JsonObject, key: string, field: string, values: readonly T[]): T[] | undefined {
    return this.array(obj, key, field, (v, f) => this.enumItem(v, f, values));
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }

  /** INVALID_INPUT listing every collected FieldError, when there is any. */
  throwIfInvalid(message: string): void {
    if (!this.valid) throw AppError.invalidInput(message, this.errors);
  }
}
