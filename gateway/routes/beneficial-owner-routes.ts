import type { BeneficialOwnerFields, PersonalInfoFields } from '../../gen/accounts/v1/beneficial_owners';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { jsonBodyOf } from '../http/request-body';
import { address } from './external-account-requests';
import { RestBody } from './rest-body';
import { ownerJson } from '../../lib/contract/beneficial-owner-json';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

const PERSONAL_TEXT = [
  'firstName',
  'middleName',
  'lastName',
  'birthDate',
  'nationality',
  'email',
  'phoneNumber',
  'idType',
  'identifier',
  'countryOfIssuance',
] as const;

const personalInfo = (b: RestBody): PersonalInfoFields => ({
  ...Object.fromEntries(PERSONAL_TEXT.map((k) => [k, b.string(k)])),
  address: b.object('address', address),
});

function ownerFields(body: unknown): BeneficialOwnerFields {
  const b = RestBody.of(body);
  const fields = {
    customerId: b.string('customerId'),
    roles: b.stringList('roles'),
    ownershipPercentage: b.integer('ownershipPercentage'),
    personalInfo: b.object('personalInfo', personalInfo),
  };
  b.done('Invalid beneficial owner');
  return fields;
}

export function beneficialOwnerRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('createBeneficialOwner', async (req, res) => {
    const { owner } = await peers.beneficialOwners.createBeneficialOwner(
      { owner: ownerFields(jsonBodyOf(req)) },
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
      { id, changes: ownerFields(jsonBodyOf(req)) },
      callContext(res),
    );
    res.status(200).json(ownerJson(owner!));
  });

  return routes;
}
