import { LookupServiceService } from '../../../../gen/quotes_transactions/v1/lookup';
import { requirePlatform, type CallContext } from '../../../../lib/grpc/call-context';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { Caller } from '../app/accounts-directory';
import type { GetLookup } from '../app/get-lookup';
import type { LookupExternalAccount } from '../app/lookup-external-account';
import type { LookupUma } from '../app/lookup-uma';
import { toLookupExternalAccountResponse, toLookupMessage, toLookupUmaResponse } from './lookup-messages';

function callerOf(ctx: CallContext): Caller {
  return { platformId: requirePlatform(ctx), correlationId: ctx.correlationId };
}

export function bindLookupService(
  useCases: { lookupExternalAccount: LookupExternalAccount; lookupUma: LookupUma; getLookup: GetLookup },
) {
  return bindService(LookupServiceService, {
    async lookupExternalAccount(request, ctx) {
      const lookup = await useCases.lookupExternalAccount({
        caller: callerOf(ctx),
        accountId: request.accountId,
        senderUmaAddress: request.senderUmaAddress,
        customerId: request.customerId,
      });
      return toLookupExternalAccountResponse(lookup);
    },
    async lookupUma(request, ctx) {
      const lookup = await useCases.lookupUma({
        caller: callerOf(ctx),
        receiverUmaAddress: request.receiverUmaAddress,
        senderUmaAddress: request.senderUmaAddress,
        customerId: request.customerId,
      });
      return toLookupUmaResponse(lookup);
    },
    async getLookup(request, ctx) {
      const lookup = await useCases.getLookup({ caller: callerOf(ctx), lookupId: request.lookupId });
      return { lookup: toLookupMessage(lookup) };
    },
  });
}
