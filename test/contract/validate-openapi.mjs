// Validates the OpenAPI document read from stdin against the OpenAPI specification's schema.
// An ES module of its own: the validator library ships as ESM only, which jest's CommonJS runtime cannot load.
import { Validator } from '@seriousme/openapi-schema-validator';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const validator = new Validator();
const result = await validator.validate(JSON.parse(Buffer.concat(chunks).toString('utf8')));
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] }));
