import { Type, type SchemaOptions, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { idPattern, type IdType } from '../ids';
import { MAX_AMOUNT } from './amount-bounds';

/**
 * The builders the request schemas shared by the gateway and the services are written with (the
 * gateway's contract adds its own in gateway/contract/schema-kit.ts). Enums are one `enum` keyword
 * (not a union of literals) so a validator reports one error naming the allowed values.
 */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A `<Type>:<uuid>` record id. */
export function Id(type: IdType, options: SchemaOptions = {}) {
  return Type.String({ pattern: idPattern(type), description: `${type} id: \`${type}:<uuid>\``, ...options });
}

/**
 * Money in the currency's smallest unit, at most MAX_AMOUNT (below 2^53: exact as a JS number).
 * A request amount beyond it is answered 400 INVALID_AMOUNT (the gateway's request-validation.ts).
 */
export const MinorUnits = (options: SchemaOptions = {}) =>
  Type.Integer({ description: 'Amount in the smallest unit of its currency', maximum: MAX_AMOUNT, ...options });

/** RFC 3339 date-time with an explicit offset. */
export const DateTime = (options: SchemaOptions = {}) => Type.String({ format: 'date-time', ...options });

/** ISO 3166-1 alpha-2 country code. */
export const Country = (options: SchemaOptions = {}) => Type.String({ format: 'iso3166-1-alpha-2', ...options });

/** A record whose members are exactly those listed (what the server writes, nothing more). */
export function ClosedObject<T extends Parameters<typeof Type.Object>[0]>(properties: T, options: SchemaOptions = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/**
 * A named schema: published once under components/schemas in the OpenAPI document and referenced
 * wherever it is used. The name rides on a symbol, which TypeBox's copies (Optional...) keep and
 * validators ignore.
 */
const SCHEMA_NAME = Symbol('contract.schemaName');
export function named<T extends TSchema>(name: string, schema: T): T {
  (schema as unknown as Record<symbol, string>)[SCHEMA_NAME] = name;
  return schema;
}
export const schemaName = (schema: object): string | undefined =>
  (schema as Record<symbol, string | undefined>)[SCHEMA_NAME];

/** A value the payments service also accepts as `null`, which it reads as absent. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}
