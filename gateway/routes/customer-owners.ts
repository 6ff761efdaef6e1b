import type { Customer } from '../../gen/accounts/v1/accounts';
import type { BeneficialOwner } from '../../gen/accounts/v1/beneficial_owners';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import type { CallContext } from '../../lib/grpc/call-context';

const PAGE = 100;

async function ownersOf(peers: PeerClients, ctx: CallContext, customerId: string): Promise<BeneficialOwner[]> {
  const owners: BeneficialOwner[] = [];
  let cursor: string | undefined;
  do {
    const page = await peers.beneficialOwners.listBeneficialOwners({ customerId, limit: PAGE, cursor }, ctx);
    owners.push(...page.owners);
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  return owners;
}

/** The beneficial owners of each business customer among `customers`, which the reference's BusinessCustomer embeds. */
export async function businessOwners(peers: PeerClients, ctx: CallContext, customers: Customer[]): Promise<Map<string, BeneficialOwner[]>> {
  const businesses = customers.filter((c) => c.customerType === 'BUSINESS');
  const read = { platformId: ctx.platformId, correlationId: ctx.correlationId };
  const lists = await Promise.all(businesses.map((c) => ownersOf(peers, read, c.id)));
  return new Map(businesses.map((c, i) => [c.id, lists[i]]));
}
