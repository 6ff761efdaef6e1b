import { type Request } from 'express';
import { AppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import type { StablecoinOperationRecord } from '../../gen/quotes_transactions/v1/stablecoins';
import { contractJson } from '../../lib/contract/contract-json';
import { readIdempotencyKey } from '../../lib/idempotency-key';
import { callContext } from '../http/call-context';
import { jsonBodyOf } from '../http/request-body';
import { Stablecoin, StablecoinOperation, StablecoinProviderAccount } from '../contract/stablecoin-contract';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

type Json = Record<string, any>;

/** The reference requires an Idempotency-Key on every POST of the Stablecoins tag. */
function requireIdempotencyKey(req: Request): void {
  if (req.get('Idempotency-Key') === undefined) {
    throw AppError.invalidInput('Idempotency-Key is required', [{
      field: 'Idempotency-Key',
      message: 'is required on every POST of the Stablecoins API',
    }]);
  }
}

/** The operation records its key, so a repeat after a crash finds it rather than creating another. */
const idempotencyKeyOf = (req: Request) => readIdempotencyKey(req.get('Idempotency-Key') ?? '');

const pageOf = (q: RestRequestReader) => ({ limit: q.limit(), cursor: q.query('cursor') });

/** The REST StablecoinProviderAccount (the message never holds the client id or secret). */
const providerAccountJson = (a: object) => contractJson(StablecoinProviderAccount, a);
const stablecoinJson = (s: object) => contractJson(Stablecoin, s);
const operationJson = (o: StablecoinOperationRecord) =>
  contractJson(StablecoinOperation, {
    ...o,
    // A proto map is never absent: an empty one stays out.
    fundingInstructions: Object.keys(o.fundingInstructions).length ? o.fundingInstructions : undefined,
  });

/** Stablecoin provider accounts, stablecoins, mints and burns: REST to StablecoinService. */
export function stablecoinRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('linkStablecoinProviderAccount', async (req, res) => {
    requireIdempotencyKey(req);
    const b = jsonBodyOf(req) as Json;
    const { account } = await peers.stablecoins.linkStablecoinProviderAccount({
      provider: b.provider,
      apiClientId: b.apiClientId,
      apiClientSecret: b.apiClientSecret,
      providerAccountId: b.providerAccountId,
    }, callContext(res));
    res.status(201).json(providerAccountJson(account!));
  });

  routes.on('listStablecoinProviderAccounts', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { provider: q.query('provider'), status: q.query('status'), page: pageOf(q) };
    q.done();
    const page = await peers.stablecoins.listStablecoinProviderAccounts(request, callContext(res));
    res.status(200).json(listJson(page, page.data, providerAccountJson));
  });

  routes.on('getStablecoinProviderAccount', async (req, res) => {
    const { account } = await peers.stablecoins.getStablecoinProviderAccount({
      id: req.params.stablecoinProviderAccountId,
    }, callContext(res));
    res.status(200).json(providerAccountJson(account!));
  });

  routes.on('registerStablecoin', async (req, res) => {
    requireIdempotencyKey(req);
    const b = jsonBodyOf(req) as Json;
    const { stablecoin } = await peers.stablecoins.registerStablecoin({
      providerTokenIdentifier: b.providerTokenIdentifier,
      networkTokenIdentifier: b.networkTokenIdentifier,
      network: b.network,
      stablecoinProviderAccountId: b.stablecoinProviderAccountId,
    }, callContext(res));
    res.status(201).json(stablecoinJson(stablecoin!));
  });

  routes.on('listStablecoins', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      issuanceStatus: q.query('issuanceStatus'),
      gridOperationsStatus: q.query('gridOperationsStatus'),
      provider: q.query('provider'),
      page: pageOf(q),
    };
    q.done();
    const page = await peers.stablecoins.listStablecoins(request, callContext(res));
    res.status(200).json(listJson(page, page.data, stablecoinJson));
  });

  routes.on('getStablecoin', async (req, res) => {
    const { stablecoin } = await peers.stablecoins.getStablecoin({ id: req.params.stablecoinId }, callContext(res));
    res.status(200).json(stablecoinJson(stablecoin!));
  });

  routes.on('createStablecoinMint', async (req, res) => {
    requireIdempotencyKey(req);
    const b = jsonBodyOf(req) as Json;
    const { operation } = await peers.stablecoins.createStablecoinMint({
      stablecoinId: req.params.stablecoinId,
      amount: b.amount,
      fundingSource: b.fundingSource,
      destination: { accountId: b.destination.accountId },
      description: b.description,
      idempotencyKey: idempotencyKeyOf(req),
    }, callContext(res));
    res.status(201).json(operationJson(operation!));
  });

  routes.on('createStablecoinBurn', async (req, res) => {
    requireIdempotencyKey(req);
    const b = jsonBodyOf(req) as Json;
    const { operation } = await peers.stablecoins.createStablecoinBurn({
      stablecoinId: req.params.stablecoinId,
      amount: b.amount,
      source: b.source,
      destination: { accountId: b.destination.externalAccountId, rail: b.destination.rail },
      description: b.description,
      idempotencyKey: idempotencyKeyOf(req),
    }, callContext(res));
    res.status(201).json(operationJson(operation!));
  });

  routes.on('listStablecoinOperations', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { stablecoinId: req.params.stablecoinId, operationType: q.query('operationType'), page: pageOf(q) };
    q.done();
    const page = await peers.stablecoins.listStablecoinOperations(request, callContext(res));
    res.status(200).json(listJson(page, page.data, operationJson));
  });

  routes.on('getStablecoinOperation', async (req, res) => {
    const { operation } = await peers.stablecoins.getStablecoinOperation(
      { id: req.params.stablecoinOperationId },
      callContext(res),
    );
    res.status(200).json(operationJson(operation!));
  });

  return routes;
}
