import { AppError } from '../../../lib/errors';
import { invalidCursor, pageLimit } from '../../../lib/page-cursor';
import { currencyInfo, type CurrencyInfo } from '../domain/currencies';

export interface UmaProviderEntry {
  name: string;
  domain: string;
  supportedRegions: string[];
  /** Catalogue currency codes. */
  supportedCurrencies: string[];
  logoUrl?: string;
  lei?: string;
  /** Whether the platform may pay this provider (its allowlist). */
  allowListStatus: boolean;
}

export interface DiscoveryEntry {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
}

/** The directory port: who can be paid. The embedded default is the sandbox's (adapters/sandbox-directory.ts). */
export interface Directory {
  umaProviders(): Promise<UmaProviderEntry[]>;
  discoveries(): Promise<DiscoveryEntry[]>;
}

export interface UmaProviderQuery {
  countryCode?: string;
  currencyCode?: string;
  /** Absent or true lists blocked providers too. */
  hasBlockedProviders?: boolean;
  limit: number;
  cursor?: string;
  sortOrder?: string;
}

function offsetOf(cursor: string | undefined): number {
  if (!cursor) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const offset = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(offset)) throw invalidCursor();
  return offset;
}

const upper = (v?: string) => (v ? v.trim().toUpperCase() : undefined);

export function createDirectoryQueries(directory: Directory) {
  return {
    /** Providers by name (desc by default), filtered by region, currency and allowlist, offset-paginated. */
    async listUmaProviders(q: UmaProviderQuery) {
      if (q.sortOrder && q.sortOrder !== 'asc' && q.sortOrder !== 'desc') {
        throw AppError.invalidInput('Invalid sort order', [{
          field: 'sortOrder',
          message: 'must be one of asc, desc',
          constraint: { enum: ['asc', 'desc'] },
        }]);
      }
      const limit = pageLimit(q.limit);
      const country = upper(q.countryCode);
      const currency = upper(q.currencyCode);
      const matching = (await directory.umaProviders())
        .filter((p) => !country || p.supportedRegions.includes(country))
        .filter((p) => !currency || p.supportedCurrencies.includes(currency))
        .filter((p) => q.hasBlockedProviders !== false || p.allowListStatus)
        .sort((a, b) => (q.sortOrder === 'asc' ? 1 : -1) * a.name.localeCompare(b.name));
      const offset = offsetOf(q.cursor);
      const items = matching.slice(offset, offset + limit);
      const hasMore = offset + limit < matching.length;
      return {
        items: items.map((p) => ({
          ...p,
          supportedCurrencies: p.supportedCurrencies.map(currencyInfo) as CurrencyInfo[],
        })),
        hasMore,
        totalCount: matching.length,
        ...(hasMore ? { nextCursor: Buffer.from(String(offset + limit), 'utf8').toString('base64url') } : {}),
      };
    },

    /** Every bank and payment provider, or those of one country and/or currency. */
    async listDiscoveries(q: { country?: string; currency?: string }): Promise<DiscoveryEntry[]> {
      const country = upper(q.country);
      const currency = upper(q.currency);
      return (await directory.discoveries()).filter((d) =>
        (!country || d.country === country) && (!currency || d.currency === currency)
      );
    },
  };
}

export type DirectoryQueries = ReturnType<typeof createDirectoryQueries>;
