import type { AccountsServiceService } from '../../../gen/accounts/v1/accounts';
import type { UnaryHandlers } from '../../../lib/grpc/service-binding';
import type { Page } from '../app/accounts-store';
import { nextCursorOf } from '../app/page-cursor';

export type AccountsHandlers = UnaryHandlers<typeof AccountsServiceService>;

/** A page of records as the list responses carry it. */
export function pageOf<T extends { id: string; createdAt: string }, M>(page: Page<T>, encode: (item: T) => M) {
  return { items: page.items.map(encode), hasMore: page.hasMore, nextCursor: nextCursorOf(page), totalCount: page.totalCount };
}
