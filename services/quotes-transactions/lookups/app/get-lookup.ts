import { AppError } from '../../../../lib/errors';
import { idPattern, isId } from '../../../../lib/ids';
import type { Lookup } from '../domain/lookup';
import type { Caller } from './accounts-directory';
import type { LookupStore } from './lookup-store';
import type { SignedLookups } from './signed-lookups';

/**
 * A stored lookup of the caller's platform, expired or not: the quote step decides what an
 * expired lookup means, from `expiresAt`.
 */
export function createGetLookup(deps: { store: LookupStore; signed?: SignedLookups }) {
  return async function getLookup(command: { caller: Caller; lookupId: string }): Promise<Lookup> {
    if (!isId('Lookup', command.lookupId)) {
      throw AppError.invalidInput('Invalid lookup id', [
        { field: 'lookupId', message: 'must be Lookup:<uuid>', constraint: { pattern: idPattern('Lookup') } },
      ]);
    }
    // A signed lookup was never stored: it is answered in full while this process holds it.
    const lookup = deps.signed?.ids.isSigned(command.lookupId)
      ? deps.signed.recent.find(command.caller.platformId, command.lookupId)
      : await deps.store.find(command.caller.platformId, command.lookupId);
    if (!lookup) throw new AppError('LOOKUP_REQUEST_NOT_FOUND', `Lookup ${command.lookupId} not found`);
    return lookup;
  };
}

export type GetLookup = ReturnType<typeof createGetLookup>;
