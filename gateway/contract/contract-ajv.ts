import type { TSchema } from '@sinclair/typebox';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { newContractAjv } from '../../lib/contract/contract-ajv';
import { schemaName } from './schema-kit';

/**
 * One ajv for the contract: every error reported (allErrors) with the schema that failed (verbose),
 * a `oneOf` with an OpenAPI `discriminator` checked against the branch its tag names only,
 * formats checked as the services check them, schemas compiled once each and kept by identity.
 */
export function createContractValidator() {
  const ajv = newContractAjv();
  const compiled = new WeakMap<TSchema, ValidateFunction>();
  const shared = new Set<string>();

  /** A named part (as the OpenAPI document publishes it) becomes a reference, compiled once for every schema using it. */
  const referencing = (schema: unknown, isRoot = false): unknown => {
    if (Array.isArray(schema)) return schema.map((item) => referencing(item));
    if (typeof schema !== 'object' || schema === null) return schema;
    const name = schemaName(schema);
    if (name && !isRoot) {
      const id = `contract:${name}`;
      if (!shared.has(id)) {
        shared.add(id);
        ajv.addSchema({ ...(referencing(schema, true) as object), $id: id });
      }
      return { $ref: id };
    }
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === 'properties' ? properties(value as Record<string, unknown>) : referencing(value)]));
  };
  const properties = (members: Record<string, unknown>) => Object.fromEntries(Object.entries(members).map(([key, value]) => [key, referencing(value)]));

  return (schema: TSchema, value: unknown): ErrorObject[] => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(referencing(schema) as object);
      compiled.set(schema, validate);
    }
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
}

export type ContractValidator = ReturnType<typeof createContractValidator>;
export type { ErrorObject };
