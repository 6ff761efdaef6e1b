import { createHash } from 'node:crypto';
import type { Payment } from './payment';

/** A customer of some platform on this server holding an UMA address. */
export interface UmaAddressHolder {
  platformId: string;
  customerId: string;
  platformCustomerId: string;
  isDeleted: boolean;
  /** Its KYC/KYB status stops it from moving money (the accounts service's policy); absent: not known to. */
  kycBlocked?: boolean;
  /** Where an incoming payment can land: its holding accounts (never an embedded wallet). */
  accounts: Array<{ id: string; currency: string; status: string }>;
}

/**
 * Who receives a payment to an UMA address, seen from the sender's platform: nobody on this
 * server (the address is outside: the counterparty VASP answers), a customer of the sender's own
 * platform (preferred when several platforms use the address), the one customer of another
 * platform holding it, or several customers of other platforms (ambiguous: refused).
 */
export type UmaReceiver =
  | { kind: 'OUTSIDE' }
  | { kind: 'ON_THIS_SERVER'; holder: UmaAddressHolder }
  | { kind: 'AMBIGUOUS'; platformIds: string[] };

export function umaReceiverFor(holders: readonly UmaAddressHolder[], senderPlatformId: string): UmaReceiver {
  if (holders.length === 0) return { kind: 'OUTSIDE' };
  const own = holders.find((h) => h.platformId === senderPlatformId);
  if (own) return { kind: 'ON_THIS_SERVER', holder: own };
  if (holders.length === 1) return { kind: 'ON_THIS_SERVER', holder: holders[0] };
  return { kind: 'AMBIGUOUS', platformIds: holders.map((h) => h.platformId) };
}

/** Currencies the holder can receive: those of its active holding accounts, once each. */
export function receivableCurrencies(holder: UmaAddressHolder): string[] {
  return [...new Set(holder.accounts.filter((a) => a.status === 'ACTIVE').map((a) => a.currency))];
}

/** The holder's active account in `currency`, where the payment lands. */
export function landingAccount(holder: UmaAddressHolder, currency: string) {
  return holder.accounts.find((a) => a.status === 'ACTIVE' && a.currency === currency);
}

/**
 * The id of the receiver's INCOMING transaction for an outgoing payment: derived from the
 * outgoing payment's id, so delivering it again (a retry, a second worker, a restart) finds the
 * same record instead of crediting twice.
 */
export function receiptTransactionId(outgoing: Pick<Payment, 'id'>): string {
  const h = createHash('sha256').update(`${outgoing.id}/same-server-receipt`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `Transaction:${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${
    h.slice(20, 32)
  }`;
}

/** An outgoing payment whose receiver may be a customer on this server (checked before it settles). */
export function paysAnUmaAddress(p: Payment): p is Payment & { destination: { destinationType: 'UMA_ADDRESS' } } {
  return p.type === 'OUTGOING' && p.destination.destinationType === 'UMA_ADDRESS';
}
