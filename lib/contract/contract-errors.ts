import type { ErrorObject } from 'ajv';
import type { FieldError } from '../errors';
import { FORMAT_CHECKS } from '../value-formats';

/* ajv's errors in the words of the error envelope (docs/rest-contract.md): the gateway's request
   check and the services' checks of contract schemas (the CSV import's rows) report alike. */

type Schema = Record<string, unknown>;
type Constraint = NonNullable<FieldError['constraint']>;

/** `/address/line1` → `address.line1`, `/currencies/1` → `currencies[1]` (how the services name fields). */
function fieldOf(instancePath: string, member?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (member !== undefined) parts.push(member);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function lengthMessage(min: unknown, max: unknown): string {
  if (typeof min === 'number' && typeof max === 'number') {
    return min === max ? `must be exactly ${min} characters` : `must be between ${min} and ${max} characters`;
  }
  return typeof min === 'number' ? `must be at least ${min} characters` : `must be at most ${max} characters`;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** The one FieldError for a member whose schema failed, in the words the services use. */
function describeValue(field: string, schema: Schema, keywords: Set<string>, fallback: string): FieldError {
  const pick = (...names: (keyof Constraint)[]) =>
    Object.fromEntries(names.filter((n) => schema[n] !== undefined).map((n) => [n, schema[n]])) as Constraint;
  if (Array.isArray(schema.enum)) {
    return { field, message: `must be one of ${schema.enum.join(', ')}`, constraint: { enum: schema.enum } };
  }
  if (schema.type === 'integer' && (keywords.has('type') || keywords.has('minimum') || keywords.has('maximum'))) {
    const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
    const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
    return { field, message: `must be an integer between ${min} and ${max}` };
  }
  if (keywords.has('type') && typeof schema.type === 'string') {
    return { field, message: `must be ${article(schema.type)}` };
  }
  if (keywords.has('minLength') || keywords.has('maxLength')) {
    return {
      field,
      message: lengthMessage(schema.minLength, schema.maxLength),
      constraint: pick('minLength', 'maxLength'),
    };
  }
  if (keywords.has('pattern')) {
    return { field, message: `must match ${schema.pattern}`, constraint: pick('pattern', 'format') };
  }
  if (keywords.has('format')) {
    const format = String(schema.format);
    return {
      field,
      message: FORMAT_CHECKS[format as keyof typeof FORMAT_CHECKS]?.message ?? `must be a valid ${format}`,
      constraint: { format },
    };
  }
  return { field, message: fallback };
}

/**
 * ajv's errors as one FieldError per invalid member, in the order ajv met them. The `null` branch
 * of an optional member, the anyOf/if wrappers and a discriminator's unknown tag (the tag's own
 * `enum` says it) add nothing a client can act on.
 */
export function fieldErrors(errors: ErrorObject[]): FieldError[] {
  const byField = new Map<string, { schema: Schema; keywords: Set<string>; message: string; required?: FieldError }>();
  for (const e of errors) {
    const parent = (e.parentSchema ?? {}) as Schema;
    if (
      e.keyword === 'anyOf' || e.keyword === 'if' || e.keyword === 'discriminator'
      || (e.keyword === 'type' && parent.type === 'null')
    ) continue;
    if (e.keyword === 'required') {
      const member = String(e.params.missingProperty);
      const field = fieldOf(e.instancePath, member);
      const memberSchema = ((parent.properties ?? {}) as Record<string, Schema>)[member] ?? {};
      const required: FieldError = Array.isArray(memberSchema.enum)
        ? { field, message: 'is required', constraint: { enum: memberSchema.enum } }
        : { field, message: 'is required' };
      if (!byField.has(field)) {
        byField.set(field, { schema: memberSchema, keywords: new Set(), message: 'is required', required });
      }
      continue;
    }
    const field = fieldOf(e.instancePath);
    const entry = byField.get(field)
      ?? { schema: parent, keywords: new Set<string>(), message: e.message ?? 'is invalid' };
    entry.keywords.add(e.keyword);
    byField.set(field, entry);
  }
  return [...byField.entries()].map(([field, entry]) =>
    entry.required ?? describeValue(field, entry.schema, entry.keywords, entry.message)
  );
}

/** Top-level member names in schema order: own properties, then those of `allOf` branches and their `then`. */
function memberOrder(schema: Schema): string[] {
  const branches = (Array.isArray(schema.allOf) ? schema.allOf : []) as Schema[];
  return [
    ...Object.keys((schema.properties ?? {}) as Schema),
    ...branches.flatMap((b) => memberOrder(b).concat(b.then ? memberOrder(b.then as Schema) : [])),
  ];
}

/** ajv checks `allOf` before `properties`; the list follows the schema's member order, as the services read. */
export function inMemberOrder(errors: FieldError[], schema: Schema): FieldError[] {
  const order = memberOrder(schema);
  const rank = (e: FieldError) => {
    const i = order.indexOf(e.field.split(/[.[]/)[0]);
    return i < 0 ? order.length : i;
  };
  return errors.map((e, i) => ({ e, i })).sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i).map(({ e }) => e);
}
