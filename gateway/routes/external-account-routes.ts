import { Router, type Request, type Response } from 'express';
import { AppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { jsonBodyOf } from '../http/request-body';
import { externalAccountJson, ownershipChallengeJson } from '../../lib/contract/account-json';
import { createExternalAccountRequest, ownershipChallengeBody, ownershipVerifyBody } from './external-account-requests';
import { listJson, RestRequestReader } from './rest-request';

type Owner = 'CUSTOMER' | 'PLATFORM';

/** External accounts under /customers/external-accounts and /platform/external-accounts. */
export function externalAccountRoutes(peers: PeerClients): Router {
  const router = Router();

  const accountId = (req: Request) => {
    const q = new RestRequestReader(req);
    const id = q.pathId('externalAccountId', 'ExternalAccount');
    q.done();
    return id;
  };

  const list = (owner: Owner) => async (req: Request, res: Response) => {
    const q = new RestRequestReader(req);
    const request = { customerId: owner === 'CUSTOMER' ? q.query('customerId') : undefined, currency: q.query('currency'), limit: q.limit(), cursor: q.query('cursor') };
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
    const request = { id: accountId(req), owner, ...ownershipChallengeBody(jsonBodyOf(req)) };
    const { challenge: issued } = await peers.accounts.startOwnershipChallenge(request, callContext(res));
    res.status(201).json(ownershipChallengeJson(issued!));
  };

  const verify = (owner: Owner) => async (req: Request, res: Response) => {
    const { account } = await peers.accounts.verifyOwnership({ id: accountId(req), owner, ...ownershipVerifyBody(jsonBodyOf(req)) }, callContext(res));
    res.status(200).json(externalAccountJson(account!));
  };

  router.get('/customers/external-accounts', list('CUSTOMER'));
  router.post('/customers/external-accounts', async (req, res) => {
    const { account } = await peers.accounts.createExternalAccount(createExternalAccountRequest(jsonBodyOf(req), 'CUSTOMER'), callContext(res));
    res.status(201).json(externalAccountJson(account!));
  });
  router.get('/customers/external-accounts/:externalAccountId', get('CUSTOMER'));
  router.delete('/customers/external-accounts/:externalAccountId', remove('CUSTOMER'));
  router.post('/customers/external-accounts/:externalAccountId/challenge', challenge('CUSTOMER'));
  router.post('/customers/external-accounts/:externalAccountId/verify', verify('CUSTOMER'));

  router.get('/platform/external-accounts', list('PLATFORM'));
  router.post('/platform/external-accounts', async (req, res) => {
    const { account } = await peers.accounts.createPlatformExternalAccount(createExternalAccountRequest(jsonBodyOf(req), 'PLATFORM'), callContext(res));
    res.status(201).json(externalAccountJson(account!));
  });
  router.get('/platform/external-accounts/:externalAccountId', get('PLATFORM'));
  router.delete('/platform/external-accounts/:externalAccountId', remove('PLATFORM'));
  router.post('/platform/external-accounts/:externalAccountId/challenge', challenge('PLATFORM'));
  router.post('/platform/external-accounts/:externalAccountId/verify', verify('PLATFORM'));

  return router;
}
