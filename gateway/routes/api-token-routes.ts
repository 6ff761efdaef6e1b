import type { ApiToken, CreateApiTokenRequest } from '../../gen/auth/v1/api_tokens';
import { contractJson } from '../../lib/contract/contract-json';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { ApiToken as ApiTokenSchema } from '../contract/api-token-contract';
import { callContext } from '../http/call-context';
import { bodyMessage } from '../http/request-body';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** ApiToken record → REST JSON; the message carries `clientSecret` only in the creation answer. */
export const apiTokenJson = (t: ApiToken) => contractJson(ApiTokenSchema, t);

/** API tokens: create (secret answered once), list, read, delete. */
export function apiTokenRoutes(peers: PeerClients, forgetToken: (clientId: string) => void): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('createToken', async (req, res) => {
    const request = bodyMessage<CreateApiTokenRequest>(req, 'auth.v1.CreateApiTokenRequest');
    const { token } = await peers.apiTokens.createApiToken(request, callContext(res));
    res.status(201).json(apiTokenJson(token!));
  });

  routes.on('listTokens', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      name: q.query('name'),
      createdAfter: q.query('createdAfter'),
      createdBefore: q.query('createdBefore'),
      updatedAfter: q.query('updatedAfter'),
      updatedBefore: q.query('updatedBefore'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.apiTokens.listApiTokens(request, callContext(res));
    res.status(200).json(listJson(page, page.data, apiTokenJson));
  });

  routes.on('getTokenById', async (req, res) => {
    const { token } = await peers.apiTokens.getApiToken({ id: req.params.tokenId }, callContext(res));
    res.status(200).json(apiTokenJson(token!));
  });

  routes.on('deleteTokenById', async (req, res) => {
    const { clientId } = await peers.apiTokens.deleteApiToken({ id: req.params.tokenId }, callContext(res));
    forgetToken(clientId);
    res.status(204).end();
  });

  return routes;
}
