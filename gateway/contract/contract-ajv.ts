import type { TSchema } from '@sinclair/typebox';
import { _, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { newContractAjv } from '../../lib/contract/contract-ajv';
import { schemaName } from './schema-kit';

/**
 * The contract's ajv, where a named part (as the OpenAPI document publishes it) becomes a reference, compiled once for
 * every schema using it.
 */
function contractAjv(extra: Options = {}) {
  const ajv = newContractAjv(extra);
  const shared = new Set<string>();

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
    return Object.fromEntries(
      Object.entries(schema).map((
        [key, value],
      ) => [key, key === 'properties' ? properties(value as Record<string, unknown>) : referencing(value)]),
    );
  };
  const properties = (members: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(members).map(([key, value]) => [key, referencing(value)]));
  return { ajv, referencing };
}

/** Schemas compiled on first use and kept by identity (tests, and a gateway without compiled validators). */
export function createContractValidator() {
  const { ajv, referencing } = contractAjv();
  const compiled = new WeakMap<TSchema, ValidateFunction>();

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

/**
 * The JavaScript of a module exporting one validator per named schema, compiled ahead of time
 * (ajv standalone code): `node dist/gateway/contract/compile-validators.js` writes it at build, so
 * the gateway compiles nothing when it starts or on a first request. Formats come from
 * contract-formats.ts, required beside the module.
 */
export function standaloneValidators(schemas: Record<string, TSchema>): string {
  const { ajv, referencing } = contractAjv({
    code: { source: true, formats: _`require("./contract-formats").CONTRACT_FORMATS` },
  });
  const exported: Record<string, string> = {};
  for (const [key, schema] of Object.entries(schemas)) {
    const rooted = referencing(schema) as Record<string, unknown>;
    if (typeof rooted.$ref === 'string' && Object.keys(rooted).length === 1) {
      exported[key] = rooted.$ref;
      continue;
    }
    ajv.addSchema({ ...rooted, $id: `operation:${key}` });
    exported[key] = `operation:${key}`;
  }
  return standaloneCode(ajv, exported);
}
