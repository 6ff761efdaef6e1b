import type { ClaimInvitationRequest, CreateInvitationRequest, UmaInvitation } from '../../gen/accounts/v1/invitations';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { bodyMessage } from '../http/request-body';
import { withoutAbsent } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** UmaInvitation record → REST JSON. */
export function invitationJson(i: UmaInvitation) {
  const amount = i.amountToSend?.currency
    ? {
      amount: i.amountToSend.amount,
      currency: {
        code: i.amountToSend.currency.code,
        name: i.amountToSend.currency.name,
        symbol: i.amountToSend.currency.symbol,
        decimals: i.amountToSend.currency.decimals,
      },
    }
    : undefined;
  return withoutAbsent({
    code: i.code,
    createdAt: i.createdAt,
    claimedAt: i.claimedAt,
    url: i.url,
    expiresAt: i.expiresAt,
    inviterUma: i.inviterUma,
    inviteeUma: i.inviteeUma,
    status: i.status,
    firstName: i.firstName,
    amountToSend: amount,
  });
}

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
