import { DirectoryServiceService } from '../../../gen/accounts/v1/directory';
import { bindService } from '../../../lib/grpc/service-binding';
import type { DirectoryQueries } from '../app/directory';

export function bindDirectoryService(directory: DirectoryQueries) {
  return bindService(DirectoryServiceService, {
    async listUmaProviders(request) {
      const page = await directory.listUmaProviders(request);
      return { data: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount };
    },
    async listDiscoveries(request) {
      return { data: await directory.listDiscoveries(request) };
    },
  });
}
