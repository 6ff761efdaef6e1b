import type { DelegatedKey as DelegatedKeyMessage } from '../../../../gen/quotes_transactions/v1/delegated_keys';
import { DelegatedKeyServiceService } from '../../../../gen/quotes_transactions/v1/delegated_keys';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { DelegatedKeys } from '../app/delegated-keys';
import { delegatedKeyView, type DelegatedKey } from '../domain/delegated-key';
import { callerOf, present } from '../../shared/grpc/payment-caller';

const toMessage = (key: DelegatedKey): DelegatedKeyMessage => delegatedKeyView(key);

export function bindDelegatedKeyService(keys: DelegatedKeys) {
  return bindService(DelegatedKeyServiceService, {
    async createDelegatedKey(request, ctx) {
      const outcome = await keys.create(callerOf(ctx), {
        cardId: request.cardId,
        internalAccountId: request.internalAccountId,
        nickname: request.nickname,
        ...(request.spendingLimitsGiven ? { spendingLimits: request.spendingLimits } : {}),
      }, request.signature ?? {});
      return outcome.kind === 'challenge'
        ? { outcome: { $case: 'challenge' as const, value: outcome.challenge } }
        : { outcome: { $case: 'delegatedKey' as const, value: toMessage(outcome.key) } };
    },
    async listDelegatedKeys(request, ctx) {
      const found = await keys.list(callerOf(ctx), {
        accountId: present(request.accountId),
        fundingSourceId: present(request.fundingSourceId),
      });
      return { delegatedKeys: found.map(toMessage) };
    },
    async getDelegatedKey(request, ctx) {
      return { delegatedKey: toMessage(await keys.get(callerOf(ctx), request.id)) };
    },
    async revokeDelegatedKey(request, ctx) {
      await keys.revoke(callerOf(ctx), request.id);
      return {};
    },
  });
}
