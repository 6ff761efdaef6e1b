import { type Request } from 'express';
import { AppError } from '../../lib/errors';
import { isId } from '../../lib/ids';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import type { ExportWalletRequest, UpdateWalletPrivacyRequest } from '../../gen/auth/v1/wallet_auth';
import { bodyMessage } from '../http/request-body';
import { walletSignature } from '../http/wallet-signature';
import { internalAccountJson } from '../../lib/contract/account-json';
import { sendWalletOutcome } from './wallet-auth-json';
import { OperationHandlers } from './operation-routes';

function internalAccountId(req: Request): string {
  const id = String(req.params.id ?? '');
  if (!isId('InternalAccount', id)) {
    throw AppError.invalidInput('id must be an InternalAccount:<uuid> id', [{
      field: 'id',
      message: 'must be an InternalAccount:<uuid> id',
    }]);
  }
  return id;
}

/** The embedded-wallet actions on an internal account: export, and wallet privacy. */
export function walletAccountRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('exportWallet', async (req, res) => {
    const accountId = internalAccountId(req);
    const request = {
      ...bodyMessage<ExportWalletRequest>(req, 'auth.v1.ExportWalletRequest'),
      accountId,
      signature: walletSignature(req),
    };
    sendWalletOutcome(res, (await peers.walletAuth.exportWallet(request, callContext(res))).outcome, 200);
  });

  routes.on('updateInternalAccount', async (req, res) => {
    const ctx = callContext(res);
    const accountId = internalAccountId(req);
    const { outcome } = await peers.walletAuth.updateWalletPrivacy({
      ...bodyMessage<UpdateWalletPrivacyRequest>(req, 'auth.v1.UpdateWalletPrivacyRequest'),
      accountId,
      signature: walletSignature(req),
    }, ctx);
    if (outcome?.outcome?.$case !== 'walletPrivacy') return sendWalletOutcome(res, outcome, 200);
    const { account } = await peers.accounts.getInternalAccount({ id: accountId }, ctx);
    if (!account) throw AppError.notFound('Internal account');
    res.status(200).json({ ...internalAccountJson(account), privateEnabled: outcome.outcome.value.privateEnabled });
  });
  return routes;
}
