import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The shared builders live in lib/contract (the services compile some of the contract's schemas too). */
export {
  ClosedObject,
  Country,
  DateTime,
  Id,
  MinorUnits,
  named,
  Nullable,
  schemaName,
  StringEnum,
} from '../../lib/contract/schema-kit';

/** A currency code as list filters take it. */
export const CurrencyCode = Type.String({ pattern: '^[A-Z0-9]{3,5}$', description: 'Currency code' });

export type { Static, TSchema };
