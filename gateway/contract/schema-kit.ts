import { Type, type SchemaOptions, type Static, type TSchema } from '@sinclair/typebox';
import { MAX_AMOUNT } from '../../lib/contract/amount-bounds';

/** The shared builders live in lib/contract (the services compile some of the contract's schemas too). */
export { ClosedObject, Country, DateTime, Id, named, schemaName, StringEnum } from '../../lib/contract/schema-kit';

/**
 * Money in the currency's smallest unit, at most MAX_AMOUNT (below 2^53: exact as a JS number).
 * A request amount beyond it is answered 400 INVALID_AMOUNT (request-validation.ts).
 */
export const MinorUnits = (options: SchemaOptions = {}) =>
  Type.Integer({ description: 'Amount in the smallest unit of its currency', maximum: MAX_AMOUNT, ...options });

/** A currency code as list filters take it. */
export const CurrencyCode = Type.String({ pattern: '^[A-Z0-9]{3,5}$', description: 'Currency code' });

/** A value the payments service also accepts as `null`, which it reads as absent. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export type { Static, TSchema };
