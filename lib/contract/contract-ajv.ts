import Ajv, { type Options } from 'ajv';
import { CONTRACT_FORMATS } from './contract-formats';

/**
 * An ajv configured as the contract needs it: every error reported (allErrors) with the schema
 * that failed (verbose, which the error formatting reads), a `oneOf` with an OpenAPI
 * `discriminator` checked against the branch its tag names only, formats checked as the services
 * check them. The gateway's validator (compiled on use or at build) and the services' checks of
 * contract schemas all use it; `extra` adds options such as standalone code generation.
 */
export function newContractAjv(extra: Options = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
    discriminator: true,
    inlineRefs: false,
    ...extra,
  });
  for (const [name, format] of Object.entries(CONTRACT_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}
