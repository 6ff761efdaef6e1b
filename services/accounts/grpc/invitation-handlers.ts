import {
  InvitationServiceService,
  UmaInvitation_Status,
  type UmaInvitation,
} from '../../../gen/accounts/v1/invitations';
import { AppError } from '../../../lib/errors';
import type { CallContext } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { Invitations } from '../app/invitations';
import type { InvitationView } from '../domain/invitation';

function invitationMessage(v: InvitationView): UmaInvitation {
  return { ...v, status: v.status as UmaInvitation_Status };
}

function platformOf(ctx: CallContext): string {
  if (!ctx.platformId) throw new AppError('UNAUTHORIZED', 'A platform is required');
  return ctx.platformId;
}

export function bindInvitationService(invitations: Invitations) {
  return bindService(InvitationServiceService, {
    async createInvitation(request, ctx) {
      const amountToSend = request.amountToSend === undefined ? undefined : Number(request.amountToSend);
      return { invitation: invitationMessage(await invitations.create(platformOf(ctx), { ...request, amountToSend })) };
    },
    async getInvitation(request) {
      return { invitation: invitationMessage(await invitations.get(request.code)) };
    },
    async claimInvitation(request) {
      return { invitation: invitationMessage(await invitations.claim(request.code, request.inviteeUma)) };
    },
    async cancelInvitation(request, ctx) {
      return { invitation: invitationMessage(await invitations.cancel(platformOf(ctx), request.code)) };
    },
  });
}
