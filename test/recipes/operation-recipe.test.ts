import { OPERATIONS } from '../../gateway/contract/operation-registry';
import { OPERATION_PERMISSIONS } from '../../gateway/contract/operation-permissions';
import { definedRpcs, operationProblems, recordedWiring, type OperationWiring } from './operation-recipe';

/** Operations the gateway answers without calling a service, each with its reason. */
const WITHOUT_RPC = {
  getHealth: 'the gateway answers for itself',
  getLiveness: 'the gateway answers for itself',
  getReadiness: "the gateway's readiness, from the runtime's probe",
  getOpenApiDocument: 'the document is built from the contract in the gateway',
};
/** Operations whose body is a multipart stream, which this check does not build: their RPC is not seen. */
const MULTIPART = {
  uploadCustomersCsv: 'multipart body (bulkImport.startCustomerImport)',
  uploadDocument: 'multipart body (documents.uploadDocument)',
  replaceDocument: 'multipart body (documents.replaceDocument)',
};

describe('the "add an operation" recipe', () => {
  let real: OperationWiring;
  beforeAll(async () => {
    const { handled, rpcs } = await recordedWiring(OPERATIONS);
    real = {
      operations: OPERATIONS,
      handled,
      permissions: OPERATION_PERMISSIONS,
      rpcs,
      definedRpcs: definedRpcs(),
      withoutRpc: { ...WITHOUT_RPC, ...MULTIPART },
    };
  });

  it('holds for every operation of the contract: a handler, a permission, an RPC a peer client defines', () => {
    expect(operationProblems(real)).toEqual([]);
  });

  it('sees the RPC a handler calls', () => {
    expect(real.rpcs.get('getCustomer')).toEqual(['accounts.getCustomer']);
    expect(real.rpcs.get('createQuote')).toEqual(['quotes.createQuote']);
  });

  it('names each missing step of an operation added to the contract alone', () => {
    const added = { operationId: 'archiveCustomer' };
    expect(operationProblems({ ...real, operations: [...real.operations, added] })).toEqual([
      "archiveCustomer: no handler (routes.on('archiveCustomer', ...) in gateway/routes)",
      'archiveCustomer: no entry in OPERATION_PERMISSIONS (gateway/contract/operation-permissions.ts)',
    ]);
  });

  it('names an operation without its permission entry', () => {
    const { getCustomer: _dropped, ...permissions } = OPERATION_PERMISSIONS as Record<string, string>;
    expect(operationProblems({ ...real, permissions })).toEqual([
      'getCustomer: no entry in OPERATION_PERMISSIONS (gateway/contract/operation-permissions.ts)',
    ]);
  });

  it('names a handler that calls no RPC, or one no peer client defines', () => {
    const rpcs = new Map(real.rpcs);
    rpcs.set('getCustomer', []);
    rpcs.set('createQuote', ['quotes.createQuoteTwice']);
    expect(operationProblems({ ...real, rpcs })).toEqual([
      'getCustomer: its handler calls no RPC',
      'createQuote: calls quotes.createQuoteTwice, which no peer client defines (lib/runtime/peer-clients.ts)',
    ]);
  });

  it('names an operation listed as answered without an RPC that calls one', () => {
    const withoutRpc = { ...real.withoutRpc, getCustomer: 'listed by mistake' };
    expect(operationProblems({ ...real, withoutRpc })).toEqual([
      'getCustomer: listed as answered without an RPC, but calls accounts.getCustomer',
    ]);
  });
});
