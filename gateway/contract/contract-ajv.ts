import type { TSchema } from '@sinclair/typebox';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { FORMAT_CHECKS } from '../../lib/value-formats';

/** Formats the schemas name, checked as the services check them; `uri` is JSON Schema's own. */
const FORMATS: Record<string, (value: string) => boolean> = {
  ...Object.fromEntries(Object.entries(FORMAT_CHECKS).map(([name, check]) => [name, check.test])),
  uri: (v) => URL.canParse(v),
};

/**
 * One ajv for the contract: every error reported (allErrors) with the schema that failed (verbose),
 * a `oneOf` with an OpenAPI `discriminator` checked against the branch its tag names only,
 * formats checked as the services check them, schemas compiled once each and kept by identity.
 */
export function createContractValidator() {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, discriminator: true });
  for (const [name, validate] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  const compiled = new WeakMap<TSchema, ValidateFunction>();
  return (schema: TSchema, value: unknown): ErrorObject[] => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
}

export type ContractValidator = ReturnType<typeof createContractValidator>;
export type { ErrorObject };
