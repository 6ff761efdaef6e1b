import type { UmaAddressHolder } from '../../payments/domain/same-server-receiver';

/** Where an UMA payment to one of our users can land: an active holding account, and who holds it. */
export interface ReceivableAccount {
  platformId: string;
  customerId: string;
  platformCustomerId: string;
  accountId: string;
  currency: string;
}

/** The UMA address of a username on our domain. */
export const umaAddressOf = (username: string, domain: string) => `$${username.replace(/^\$/, '')}@${domain}`;

/** Our pay-request callback for a username (named in our lnurlp response). */
export const payRequestPath = (username: string) => `/uma/payreq/${encodeURIComponent(username.replace(/^\$/, ''))}`;

/** Our post-transaction callback for an incoming payment (named in our pay-request response). */
export const postTransactionPath = (transactionId: string) =>
  `/uma/post-transaction/${encodeURIComponent(transactionId)}`;

/**
 * The accounts an address can receive in: the one customer (not deleted) holding it on this
 * server, with its active holding accounts. An address held by customers of several platforms
 * cannot be told apart from outside, and a customer whose KYC status blocks it may not receive:
 * both receive nothing, as an unknown address.
 */
export function receivableAccounts(holders: UmaAddressHolder[]): ReceivableAccount[] {
  const live = holders.filter((h) => !h.isDeleted);
  if (live.length !== 1) return [];
  const [h] = live;
  if (h.kycBlocked) return [];
  return h.accounts.filter((a) => a.status === 'ACTIVE').map((a) => ({
    platformId: h.platformId,
    customerId: h.customerId,
    platformCustomerId: h.platformCustomerId,
    accountId: a.id,
    currency: a.currency,
  }));
}

/** A request as the sending VASP addressed it: on our domain (what its signature covers). */
export function requestUrl(identity: { scheme: string; domain: string }, pathAndQuery: string): URL {
  return new URL(
    pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`,
    `${identity.scheme}://${identity.domain}`,
  );
}

const UMA_ADDRESS = /^\$[a-zA-Z0-9._+-]{1,64}@([a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?)$/i;

/**
 * The VASP domain of an UMA address (`$alice@vasp.example` → `vasp.example`), a `:port` allowed
 * (the SDK's own check refuses one, which two sandbox servers on one machine need); undefined when
 * it is no UMA address.
 */
export function vaspDomainOf(address: string): string | undefined {
  const m = UMA_ADDRESS.exec(address);
  return m ? m[1].toLowerCase() : undefined;
}

/** The `index`th segment of a request path, decoded; undefined when it is missing or not valid percent-encoding. */
export function pathSegment(url: URL, index: number): string | undefined {
  const raw = url.pathname.split('/')[index];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
