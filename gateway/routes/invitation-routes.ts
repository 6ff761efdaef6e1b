import type { ClaimInvitationRequest, CreateInvitationRequest, UmaInvitation } from '../../gen/accounts/v1/invitations';
import { contractJson } from '../../lib/contract/contract-json';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { UmaInvitation as UmaInvitationSchema } from '../contract/invitation-contract';
import { callContext } from '../http/call-context';
import { bodyMessage } from '../http/request-body';
import { OperationHandlers } from './operation-routes';

/** UmaInvitation record → REST JSON; an amount without its currency is left out, as REST's needs one. */
export const invitationJson = (i: UmaInvitation) =>
  contractJson(UmaInvitationSchema, { ...i, amountToSend: i.amountToSend?.currency ? i.amountToSend : undefined });

/** UMA invitations: create, read, claim, cancel. */
export function invitationRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('createInvitation', async (req, res) => {
    const request = bodyMessage<CreateInvitationRequest>(req, 'accounts.v1.CreateInvitationRequest');
    const { invitation } = await peers.invitations.createInvitation(request, callContext(res));
    res.status(201).json(invitationJson(invitation!));
  });

  routes.on('getInvitation', async (req, res) => {
    const { invitation } = await peers.invitations.getInvitation({ code: req.params.invitationCode }, callContext(res));
    res.status(200).json(invitationJson(invitation!));
  });

  routes.on('claimInvitation', async (req, res) => {
    const body = bodyMessage<ClaimInvitationRequest>(req, 'accounts.v1.ClaimInvitationRequest');
    const request = { ...body, code: req.params.invitationCode };
    const { invitation } = await peers.invitations.claimInvitation(request, callContext(res));
    res.status(200).json(invitationJson(invitation!));
  });

  routes.on('cancelInvitation', async (req, res) => {
    const { invitation } = await peers.invitations.cancelInvitation(
      { code: req.params.invitationCode },
      callContext(res),
    );
    res.status(200).json(invitationJson(invitation!));
  });

  return routes;
}
