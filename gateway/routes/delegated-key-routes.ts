import type { CreateDelegatedKeyRequest, DelegatedKey } from '../../gen/quotes_transactions/v1/delegated_keys';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { bodyMessage, jsonBodyOf } from '../http/request-body';
import { walletSignature } from '../http/wallet-signature';
import { RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** The reference's DelegatedKey: spendingLimits absent when the key has none. */
function delegatedKeyJson(key: DelegatedKey) {
  const { spendingLimits, ...rest } = key;
  return { ...rest, ...(spendingLimits.length ? { spendingLimits } : {}) };
}

/** Delegated signing keys of embedded-wallet card funding sources (reference: Embedded Wallet Auth). */
export function delegatedKeyRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('createDelegatedKey', async (req, res) => {
    const request = {
      ...bodyMessage<CreateDelegatedKeyRequest>(req, 'quotes_transactions.v1.CreateDelegatedKeyRequest'),
      // No REST member: whether the body names spendingLimits at all (an empty list is "none").
      spendingLimitsGiven: (jsonBodyOf(req) as Record<string, unknown>).spendingLimits !== undefined,
      signature: walletSignature(req),
    };
    const { outcome } = await peers.delegatedKeys.createDelegatedKey(request, callContext(res));
    if (outcome?.$case === 'challenge') {
      const { payloadToSign, requestId, expiresAt } = outcome.value;
      res.status(202).json({ payloadToSign, requestId, expiresAt });
      return;
    }
    res.status(201).json(delegatedKeyJson(outcome!.value));
  });

  routes.on('listDelegatedKeys', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { accountId: q.query('accountId'), fundingSourceId: q.query('fundingSourceId') };
    q.done();
    const { delegatedKeys } = await peers.delegatedKeys.listDelegatedKeys(request, callContext(res));
    res.status(200).json({ data: delegatedKeys.map(delegatedKeyJson) });
  });

  routes.on('getDelegatedKeyById', async (req, res) => {
    const { delegatedKey } = await peers.delegatedKeys.getDelegatedKey({ id: req.params.id }, callContext(res));
    res.status(200).json(delegatedKeyJson(delegatedKey!));
  });

  routes.on('revokeDelegatedKey', async (req, res) => {
    await peers.delegatedKeys.revokeDelegatedKey({ id: req.params.id }, callContext(res));
    res.status(204).end();
  });

  return routes;
}
