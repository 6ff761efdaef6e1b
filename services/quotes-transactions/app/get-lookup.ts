import { AppError } from '../../../lib/errors';
import { idPattern, isId } from '../../../lib/ids';
import type { Lookup } from '../domain/lookup';
import type { Caller } from './accounts-directory';
import type { LookupStore } from './lookup-store';

/**
 * A stored lookup of the caller's platform, expired or not: the quote step decides what an
 * expired lookup means, from `expiresAt`.
 */
export function createGetLookup(deps: { store: LookupStore }) {
  return async function getLookup(command: { caller: Caller; lookupId: string }): Promise<Lookup> {
    if (!isId('Lookup', command.lookupId)) {
      throw AppError.invalidInput('Invalid lookup id', [
        { field: 'lookupId', message: 'must be Lookup:<uuid>', constraint: { pattern: idPattern('Lookup') } },
      ]);
    }
    const lookup = await deps.store.find(command.caller.platformId, command.lookupId);
    if (!lookup) throw new AppError('LOOKUP_REQUEST_NOT_FOUND', `Lookup ${command.lookupId} not found`);
    return lookup;
  };
}

export type GetLookup = ReturnType<typeof createGetLookup>;
