import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createContractValidator, standaloneValidators } from './contract-ajv';
import type { Operation } from './operation';
import { OPERATIONS } from './operation-registry';

/** The module the build writes beside this one (in dist/ only): one validator per operation's query and body. */
const COMPILED_MODULE = 'contract-validators.generated.js';

export type OperationPart = 'query' | 'body';
const keyOf = (op: Operation, part: OperationPart) => `${op.operationId}:${part}`;

/** Every operation's query and body schema, by `operationId:part`. */
function operationSchemas(): Record<string, TSchema> {
  const schemas: Record<string, TSchema> = {};
  for (const op of OPERATIONS) {
    if (op.query) schemas[keyOf(op, 'query')] = op.query as TSchema;
    if (op.body) schemas[keyOf(op, 'body')] = op.body.schema;
  }
  return schemas;
}

/**
 * The compiled module when it is at least as recent as the contract it was compiled from (every
 * module of this directory and of lib/contract, and the formats); otherwise undefined, and schemas are compiled on use.
 */
function loadCompiled(): Record<string, ValidateFunction> | undefined {
  const file = join(__dirname, COMPILED_MODULE);
  try {
    const compiledAt = statSync(file).mtimeMs;
    const sources = [__dirname, join(__dirname, '../../lib/contract')]
      .flatMap((dir) =>
        readdirSync(dir).filter((f) => f.endsWith('.js') && f !== COMPILED_MODULE).map((f) => join(dir, f))
      )
      .concat(require.resolve('../../lib/value-formats'));
    if (sources.some((source) => statSync(source).mtimeMs > compiledAt)) return undefined;
    return require(file) as Record<string, ValidateFunction>;
  } catch {
    return undefined; // not built (tests run the sources): compiled on use
  }
}

/**
 * Checks a request part against its operation's schema: with the validators compiled at build
 * when present and current, else with schemas compiled on first use. Answers ajv's errors.
 */
export function createOperationValidator(compiled = loadCompiled()) {
  const onUse = createContractValidator();
  return (op: Operation, part: OperationPart, value: unknown): ErrorObject[] => {
    const validate = compiled?.[keyOf(op, part)];
    const schema = (part === 'query' ? op.query : op.body?.schema) as TSchema;
    if (!validate) return onUse(schema, value);
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
}

/** Build step: writes the compiled validators into dist beside this module. */
function writeCompiled(): void {
  const ids = OPERATIONS.map((op) => op.operationId);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length) throw new Error(`operation ids are not unique: ${repeated.join(', ')}`);
  writeFileSync(join(__dirname, COMPILED_MODULE), standaloneValidators(operationSchemas()));
}

if (require.main === module) writeCompiled();
