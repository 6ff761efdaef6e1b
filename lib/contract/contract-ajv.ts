import Ajv from 'ajv';
import { FORMAT_CHECKS } from '../value-formats';

/** Formats the schemas name, checked as the services check them; `uri` is JSON Schema's own. */
const FORMATS: Record<string, (value: string) => boolean> = {
  ...Object.fromEntries(Object.entries(FORMAT_CHECKS).map(([name, check]) => [name, check.test])),
  uri: (v) => URL.canParse(v),
};

/**
 * An ajv configured as the contract needs it: every error reported (allErrors) with the schema
 * that failed (verbose, which the error formatting reads), a `oneOf` with an OpenAPI
 * `discriminator` checked against the branch its tag names only, formats checked as the services
 * check them. The gateway's validator and the services' checks of contract schemas both use it.
 */
export function newContractAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, discriminator: true, inlineRefs: false,
  });
  for (const [name, validate] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}
