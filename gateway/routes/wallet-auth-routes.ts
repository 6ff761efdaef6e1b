import { type Request } from 'express';
import { AppError } from '../../lib/errors';
import { isId } from '../../lib/ids';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import type {
  ChallengeCredentialRequest,
  CreateCredentialRequest,
  RefreshSessionRequest,
  RevokeCredentialRequest,
  RevokeSessionRequest,
  VerifyCredentialRequest,
} from '../../gen/auth/v1/wallet_auth';
import { bodyMessage } from '../http/request-body';
import { walletSignature } from '../http/wallet-signature';
import { RestRequestReader } from './rest-request';
import { authMethodJson, authSessionJson, sendWalletOutcome } from './wallet-auth-json';
import { OperationHandlers } from './operation-routes';

function accountIdQuery(req: Request): string {
  const q = new RestRequestReader(req);
  const accountId = q.query('accountId');
  q.done();
  if (!isId('InternalAccount', accountId)) {
    throw AppError.invalidInput('accountId must be an InternalAccount:<uuid> id', [{
      field: 'accountId',
      message: 'must be an InternalAccount:<uuid> id',
    }]);
  }
  return accountId;
}

/** A credential or session path id; a malformed one names nothing that exists. */
function pathId(req: Request, type: 'AuthMethod' | 'Session'): string {
  const id = String(req.params.id ?? '');
  if (!isId(type, id)) throw AppError.notFound(type === 'AuthMethod' ? 'Authentication credential' : 'Session');
  return id;
}

/** Embedded-wallet credentials and sessions (interface "Embedded-wallet authentication"). */
export function walletAuthRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('listCredentials', async (req, res) => {
    const { credentials } = await peers.walletAuth.listCredentials(
      { accountId: accountIdQuery(req) },
      callContext(res),
    );
    res.status(200).json({ data: credentials.map(authMethodJson) });
  });
  routes.on('createCredential', async (req, res) => {
    const response = await peers.walletAuth.createCredential({
      ...bodyMessage<CreateCredentialRequest>(req, 'auth.v1.CreateCredentialRequest'),
      signature: walletSignature(req),
    }, callContext(res));
    sendWalletOutcome(res, response.outcome, 201);
  });
  routes.on('challengeCredential', async (req, res) => {
    const id = pathId(req, 'AuthMethod');
    const response = await peers.walletAuth.challengeCredential({
      ...bodyMessage<ChallengeCredentialRequest>(req, 'auth.v1.ChallengeCredentialRequest'),
      id,
    }, callContext(res));
    sendWalletOutcome(res, response.outcome, 200);
  });
  routes.on('verifyCredential', async (req, res) => {
    const id = pathId(req, 'AuthMethod');
    const request = {
      ...bodyMessage<VerifyCredentialRequest>(req, 'auth.v1.VerifyCredentialRequest'),
      id,
      signature: walletSignature(req),
    };
    sendWalletOutcome(res, (await peers.walletAuth.verifyCredential(request, callContext(res))).outcome, 200);
  });
  routes.on('revokeCredential', async (req, res) => {
    const id = pathId(req, 'AuthMethod');
    const body = bodyMessage<RevokeCredentialRequest>(req, 'auth.v1.RevokeCredentialRequest');
    const request = { ...body, id, signature: walletSignature(req) };
    sendWalletOutcome(res, (await peers.walletAuth.revokeCredential(request, callContext(res))).outcome, 204);
  });

  routes.on('listSessions', async (req, res) => {
    const { sessions } = await peers.walletAuth.listSessions({ accountId: accountIdQuery(req) }, callContext(res));
    res.status(200).json({ data: sessions.map(authSessionJson) });
  });
  routes.on('revokeSession', async (req, res) => {
    const id = pathId(req, 'Session');
    const body = bodyMessage<RevokeSessionRequest>(req, 'auth.v1.RevokeSessionRequest');
    const request = { ...body, id, signature: walletSignature(req) };
    sendWalletOutcome(res, (await peers.walletAuth.revokeSession(request, callContext(res))).outcome, 204);
  });
  routes.on('refreshSession', async (req, res) => {
    const id = pathId(req, 'Session');
    const request = {
      ...bodyMessage<RefreshSessionRequest>(req, 'auth.v1.RefreshSessionRequest'),
      id,
      signature: walletSignature(req),
    };
    sendWalletOutcome(res, (await peers.walletAuth.refreshSession(request, callContext(res))).outcome, 201);
  });

  // Not in the reference: where clients read the key that signs otpEncryptionTargetBundle, to pin it.
  routes.on('getEnclavePublicKey', async (_req, res) => {
    const { publicKey } = await peers.walletAuth.getEnclavePublicKey({}, callContext(res));
    res.status(200).json({ enclaveQuorumPublic: publicKey });
  });
  return routes;
}
