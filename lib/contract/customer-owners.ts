import type { BeneficialOwner } from '../../gen/accounts/v1/beneficial_owners';
import type { CallContext } from '../grpc/call-context';

const PAGE = 100;

/** BeneficialOwnerService.ListBeneficialOwners, as the gateway and the notifications service both call it. */
export type ListOwners = (
  request: { customerId: string; limit: number; cursor?: string },
  ctx: CallContext,
) => Promise<{ owners: BeneficialOwner[]; hasMore: boolean; nextCursor?: string }>;

/** Every beneficial owner of one customer, page by page: what the reference's BusinessCustomer embeds. */
export async function ownersOf(list: ListOwners, ctx: CallContext, customerId: string): Promise<BeneficialOwner[]> {
  const owners: BeneficialOwner[] = [];
  let cursor: string | undefined;
  do {
    const page = await list({ customerId, limit: PAGE, cursor }, ctx);
    owners.push(...page.owners);
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  return owners;
}
