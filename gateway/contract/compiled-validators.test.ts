import type { ValidateFunction } from 'ajv';
import { createOperationValidator } from './compiled-validators';
import { standaloneValidators } from './contract-ajv';
import * as contractFormats from './contract-formats';
import { OPERATIONS } from './operation-registry';
import { fieldErrors } from '../http/request-validation';

/** The build's module, evaluated here as Node would load it from dist (its one local require is the formats). */
function compiledModule(): Record<string, ValidateFunction> {
  const schemas = Object.fromEntries(OPERATIONS.flatMap((op) => [
    ...(op.query ? [[`${op.operationId}:query`, op.query]] : []),
    ...(op.body ? [[`${op.operationId}:body`, op.body.schema]] : []),
  ]));
  const module = { exports: {} as Record<string, ValidateFunction> };
  const localRequire = (id: string) => (id === './contract-formats' ? contractFormats : require(id));
  new Function('require', 'module', 'exports', standaloneValidators(schemas))(localRequire, module, module.exports);
  return module.exports;
}

const op = (id: string) => OPERATIONS.find((o) => o.operationId === id)!;

describe('validators compiled at build (ajv standalone)', () => {
  const compiled = compiledModule();
  const ahead = createOperationValidator(compiled);
  const onUse = createOperationValidator({});

  it('exist for every operation with a query or a body', () => {
    for (const o of OPERATIONS) {
      if (o.query) expect(typeof compiled[`${o.operationId}:query`]).toBe('function');
      if (o.body) expect(typeof compiled[`${o.operationId}:body`]).toBe('function');
    }
  });

  it.each(
    [
      ['createQuote', 'body', {}],
      ['createQuote', 'body', {
        source: { sourceType: 'ACCOUNT' },
        destination: { destinationType: 'NOPE' },
        lockedCurrencySide: 'UP',
        lockedCurrencyAmount: -1.5,
      }],
      ['createQuote', 'body', {
        source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:x' },
        destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:y' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100,
      }],
      ['createCustomer', 'body', {
        customerType: 'INDIVIDUAL',
        email: 'not an email',
        birthDate: '1990-13-45',
        address: { country: 'XX' },
      }],
      ['listQuotes', 'query', { limit: 'many', status: 'SOMETIMES', createdAfter: 'yesterday' }],
      ['updatePlatformConfig', 'body', {
        umaDomain: 'Not A Domain',
        limits: [{ currency: 'usd', dailyVolume: 'lots' }],
      }],
    ] as const,
  )('answer %s %s as the schemas compiled on use do', (id, part, value) => {
    const expected = fieldErrors(onUse(op(id), part, structuredClone(value)));
    expect(fieldErrors(ahead(op(id), part, structuredClone(value)))).toEqual(expected);
  });

  it('fall back to compiling on use for an operation the module lacks', () => {
    expect(fieldErrors(createOperationValidator({})(op('createQuote'), 'body', {})).map((e) => e.field)).toEqual(
      expect.arrayContaining(['source', 'destination', 'lockedCurrencySide', 'lockedCurrencyAmount']),
    );
  });
});
