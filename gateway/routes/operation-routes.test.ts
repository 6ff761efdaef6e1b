import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../lib/log';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { API_VERSION } from '../contract/api-version';
import { OPERATIONS } from '../contract/operation-registry';
import { createAuthThrottle } from '../http/auth-throttle';
import { operationHandlerSets } from '../gateway-app';
import { OperationHandlers, operationRoutes, requireEveryOperationServed } from './operation-routes';

const unused = new Proxy({}, { get: () => new Proxy({}, { get: () => () => undefined }) }) as PeerClients;
const sets = () =>
  operationHandlerSets(
    { peers: unused, logger: silentLogger, servicesReady: async () => true },
    { forgetToken: () => undefined, throttle: createAuthThrottle() },
  );

test('every operation of the contract has exactly one handler, and every handler an operation', () => {
  const handled = Object.values(sets()).flatMap((set) => [...set.byId.keys()]);
  expect([...handled].sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
});

test('a handler for an operation the contract lacks, or a second handler, is refused', () => {
  const handlers = new OperationHandlers();
  const end = (_req: unknown, res: { end: () => void }) => void res.end();
  expect(() => handlers.on('noSuchOperation', end)).toThrow('noSuchOperation is no operation of the contract');
  handlers.on('getCustomer', end);
  expect(() => handlers.on('getCustomer', end)).toThrow('getCustomer has two handlers');
  const other = new OperationHandlers();
  other.on('getCustomer', end);
  expect(() => OperationHandlers.merge([handlers, other])).toThrow('getCustomer has two handlers');
});

test('an operation without a handler stops the gateway from being built', () => {
  const { api, ...rest } = sets();
  const partial = new OperationHandlers();
  for (const [operationId, handlers] of api.byId) {
    if (operationId !== 'getCustomer') partial.on(operationId, ...handlers);
  }
  const everyOtherSet = [...Object.values(rest), partial];
  expect(() => requireEveryOperationServed(everyOtherSet)).toThrow('operations without a handler: getCustomer');
});

describe('served from the contract', () => {
  let server: Server;
  let root: string;
  beforeAll(async () => {
    const handlers = new OperationHandlers();
    handlers.on('getCustomer', (req, res) => {
      res.json({ operation: 'getCustomer', customerId: req.params.customerId });
    });
    handlers.on('getEndUserTerms', (_req, res) => void res.json({ operation: 'getEndUserTerms' }));
    const app = express();
    app.use(`/${API_VERSION}`, operationRoutes(handlers, `/${API_VERSION}`));
    app.use((_req, res) => void res.status(404).json({ passedOn: true }));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${API_VERSION}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`${root}${path}`, { method });
    return [response.status, await response.json()];
  };

  it("at the contract's path, with its parameters, fixed segments before parameters", async () => {
    expect(await get('/customers/Customer:1')).toEqual([200, { operation: 'getCustomer', customerId: 'Customer:1' }]);
    expect(await get('/customers/end-user-terms')).toEqual([200, { operation: 'getEndUserTerms' }]);
  });

  it('passes on another method, an operation it has no handler for, and a path no operation serves', async () => {
    expect(await get('/customers/Customer:1', 'DELETE')).toEqual([404, { passedOn: true }]);
    expect(await get('/customers')).toEqual([404, { passedOn: true }]);
    expect(await get('/no-such-path')).toEqual([404, { passedOn: true }]);
  });
});
