import type { AccountsServiceService } from '../../../gen/accounts/v1/accounts';
import type { UnaryHandlers } from '../../../lib/grpc/service-binding';
import { nextPageCursor } from '../../../lib/page-cursor';
import type { Page } from '../app/accounts-store';

export type AccountsHandlers = UnaryHandlers<typeof AccountsServiceService>;

/** A page of records as the list responses carry it. */
export function pageOf<T extends { id: string; createdAt: string }, M>(page: Page<T>, encode: (item: T) => M) {
  return {
    items: page.items.map(encode),
    hasMore: page.hasMore,
    nextCursor: nextPageCursor(page.items, page.hasMore),
    totalCount: page.totalCount,
  };
}
