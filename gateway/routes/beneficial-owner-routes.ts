import type { Request } from 'express';
import type { BeneficialOwnerFields } from '../../gen/accounts/v1/beneficial_owners';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { bodyMessage } from '../http/request-body';
import { ownerJson } from '../../lib/contract/beneficial-owner-json';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

const ownerFields = (req: Request) => bodyMessage<BeneficialOwnerFields>(req, 'accounts.v1.BeneficialOwnerFields');

export function beneficialOwnerRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('createBeneficialOwner', async (req, res) => {
    const { owner } = await peers.beneficialOwners.createBeneficialOwner(
      { owner: ownerFields(req) },
      callContext(res),
    );
    res.status(201).json(ownerJson(owner!));
  });

  routes.on('listBeneficialOwners', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { customerId: q.query('customerId'), limit: q.limit(), cursor: q.query('cursor') };
    q.done();
    const page = await peers.beneficialOwners.listBeneficialOwners(request, callContext(res));
    res.status(200).json(listJson(page, page.owners, ownerJson));
  });

  routes.on('getBeneficialOwner', async (req, res) => {
    const q = new RestRequestReader(req);
    const id = q.pathId('beneficialOwnerId', 'BeneficialOwner');
    q.done();
    const { owner } = await peers.beneficialOwners.getBeneficialOwner({ id }, callContext(res));
    res.status(200).json(ownerJson(owner!));
  });

  routes.on('updateBeneficialOwner', async (req, res) => {
    const q = new RestRequestReader(req);
    const id = q.pathId('beneficialOwnerId', 'BeneficialOwner');
    q.done();
    const { owner } = await peers.beneficialOwners.updateBeneficialOwner(
      { id, changes: ownerFields(req) },
      callContext(res),
    );
    res.status(200).json(ownerJson(owner!));
  });

  return routes;
}
