import { type Request, type Response } from 'express';
import { AppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import type {
  CreateExternalAccountRequest,
  CreatePlatformExternalAccountRequest,
  StartOwnershipChallengeRequest,
  VerifyOwnershipRequest,
} from '../../gen/accounts/v1/external_account_requests';
import { bodyMessage } from '../http/request-body';
import { externalAccountJson } from '../../lib/contract/account-json';
import { contractJson } from '../../lib/contract/contract-json';
import { OwnershipChallenge } from '../contract/account-contract';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** The REST OwnershipChallenge is one of these, by `method`. */
const [WalletSignatureChallenge, LivenessChallenge] = OwnershipChallenge.anyOf;

type Owner = 'CUSTOMER' | 'PLATFORM';

/** External accounts under /customers/external-accounts and /platform/external-accounts. */
export function externalAccountRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  const accountId = (req: Request) => {
    const q = new RestRequestReader(req);
    const id = q.pathId('externalAccountId', 'ExternalAccount');
    q.done();
    return id;
  };

  const list = (owner: Owner) => async (req: Request, res: Response) => {
    const q = new RestRequestReader(req);
    const request = {
      customerId: owner === 'CUSTOMER' ? q.query('customerId') : undefined,
      currency: q.query('currency'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = owner === 'CUSTOMER'
      ? await peers.accounts.listExternalAccounts(request, callContext(res))
      : await peers.accounts.listPlatformExternalAccounts(request, callContext(res));
    res.status(200).json(listJson(page, page.accounts, externalAccountJson));
  };

  // An account of the other owner kind answers exactly like a missing one.
  const get = (owner: Owner) => async (req: Request, res: Response) => {
    const { account } = await peers.accounts.getExternalAccount({ id: accountId(req) }, callContext(res));
    if ((account!.customerId !== undefined) !== (owner === 'CUSTOMER')) throw AppError.notFound('External account');
    res.status(200).json(externalAccountJson(account!));
  };

  const remove = (owner: Owner) => async (req: Request, res: Response) => {
    await peers.accounts.deleteExternalAccount({ id: accountId(req), owner }, callContext(res));
    res.status(204).end();
  };

  // Ownership verification: the challenge (201) and, for WALLET_SIGNATURE, the synchronous verify.
  const challenge = (owner: Owner) => async (req: Request, res: Response) => {
    const body = bodyMessage<StartOwnershipChallengeRequest>(req, 'accounts.v1.StartOwnershipChallengeRequest');
    const request = { ...body, id: accountId(req), owner };
    const { challenge: issued } = await peers.accounts.startOwnershipChallenge(request, callContext(res));
    res.status(201).json(
      contractJson(issued!.method === 'LIVENESS' ? LivenessChallenge : WalletSignatureChallenge, issued!),
    );
  };

  const verify = (owner: Owner) => async (req: Request, res: Response) => {
    const body = bodyMessage<VerifyOwnershipRequest>(req, 'accounts.v1.VerifyOwnershipRequest');
    const { account } = await peers.accounts.verifyOwnership({ ...body, id: accountId(req), owner }, callContext(res));
    res.status(200).json(externalAccountJson(account!));
  };

  routes.on('listExternalAccounts', list('CUSTOMER'));
  routes.on('createExternalAccount', async (req, res) => {
    const { account } = await peers.accounts.createExternalAccount(
      bodyMessage<CreateExternalAccountRequest>(req, 'accounts.v1.CreateExternalAccountRequest'),
      callContext(res),
    );
    res.status(201).json(externalAccountJson(account!));
  });
  routes.on('getExternalAccount', get('CUSTOMER'));
  routes.on('deleteExternalAccount', remove('CUSTOMER'));
  routes.on('startOwnershipChallenge', challenge('CUSTOMER'));
  routes.on('verifyOwnership', verify('CUSTOMER'));

  routes.on('listPlatformExternalAccounts', list('PLATFORM'));
  routes.on('createPlatformExternalAccount', async (req, res) => {
    const { account } = await peers.accounts.createPlatformExternalAccount(
      bodyMessage<CreatePlatformExternalAccountRequest>(req, 'accounts.v1.CreatePlatformExternalAccountRequest'),
      callContext(res),
    );
    res.status(201).json(externalAccountJson(account!));
  });
  routes.on('getPlatformExternalAccount', get('PLATFORM'));
  routes.on('deletePlatformExternalAccount', remove('PLATFORM'));
  routes.on('startPlatformOwnershipChallenge', challenge('PLATFORM'));
  routes.on('verifyPlatformOwnership', verify('PLATFORM'));

  return routes;
}
