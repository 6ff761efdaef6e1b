import type { Customer } from '../../gen/accounts/v1/accounts';
import type { BeneficialOwner } from '../../gen/accounts/v1/beneficial_owners';
import { ownersOf, type ListOwners } from '../../lib/contract/customer-owners';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import type { CallContext } from '../../lib/grpc/call-context';

/** The beneficial owners of each business customer among `customers`, which the reference's BusinessCustomer embeds. */
export async function businessOwners(
  peers: PeerClients,
  ctx: CallContext,
  customers: Customer[],
): Promise<Map<string, BeneficialOwner[]>> {
  const businesses = customers.filter((c) => c.customerType === 'BUSINESS');
  const read = { platformId: ctx.platformId, correlationId: ctx.correlationId };
  const list: ListOwners = (request, context) => peers.beneficialOwners.listBeneficialOwners(request, context);
  const lists = await Promise.all(businesses.map((c) => ownersOf(list, read, c.id)));
  return new Map(businesses.map((c, i) => [c.id, lists[i]]));
}
