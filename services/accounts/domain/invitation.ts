import { randomBytes } from 'node:crypto';
import { AppError, type FieldError } from '../../../lib/errors';
import { currencyInfo, type CurrencyInfo } from './currencies';
import { UMA_ADDRESS } from './customer-fields';

export type InvitationStatus = 'PENDING' | 'CLAIMED' | 'EXPIRED' | 'CANCELLED';

/** What is stored; EXPIRED is never stored: a PENDING invitation past `expiresAt` reads as EXPIRED. */
export interface Invitation {
  code: string;
  platformId: string;
  inviterUma: string;
  inviterCustomerId: string;
  status: 'PENDING' | 'CLAIMED' | 'CANCELLED';
  url: string;
  firstName?: string;
  /** Display only: the inviting platform sends the payment itself once told of the claim. */
  amountToSend?: { amount: number; currency: string };
  expiresAt?: string;
  inviteeUma?: string;
  claimedAt?: string;
  cancelledAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The REST UmaInvitation (also the INVITATION.CLAIMED webhook's data). */
export interface InvitationView {
  code: string;
  createdAt: string;
  claimedAt?: string;
  url: string;
  expiresAt?: string;
  inviterUma: string;
  inviteeUma?: string;
  status: InvitationStatus;
  firstName?: string;
  amountToSend?: { amount: number; currency: Pick<CurrencyInfo, 'code' | 'name' | 'symbol' | 'decimals'> };
}

export function statusAt(inv: Invitation, now: Date): InvitationStatus {
  if (inv.status === 'PENDING' && inv.expiresAt && Date.parse(inv.expiresAt) <= now.getTime()) return 'EXPIRED';
  return inv.status;
}

export function invitationView(inv: Invitation, now: Date): InvitationView {
  const currency = inv.amountToSend && currencyInfo(inv.amountToSend.currency);
  return {
    code: inv.code,
    createdAt: inv.createdAt,
    ...(inv.claimedAt ? { claimedAt: inv.claimedAt } : {}),
    url: inv.url,
    ...(inv.expiresAt ? { expiresAt: inv.expiresAt } : {}),
    inviterUma: inv.inviterUma,
    ...(inv.inviteeUma ? { inviteeUma: inv.inviteeUma } : {}),
    status: statusAt(inv, now),
    ...(inv.firstName ? { firstName: inv.firstName } : {}),
    ...(inv.amountToSend && currency
      ? {
        amountToSend: {
          amount: inv.amountToSend.amount,
          currency: { code: currency.code, name: currency.name, symbol: currency.symbol, decimals: currency.decimals },
        },
      }
      : {}),
  };
}

/** Why an invitation that is not PENDING (any more) cannot be claimed or cancelled. */
export function notPending(status: InvitationStatus): AppError {
  switch (status) {
    case 'CLAIMED':
      return new AppError('INVITATION_ALREADY_CLAIMED', 'This invitation was already claimed');
    case 'CANCELLED':
      return new AppError('INVITATION_CANCELLED', 'This invitation was cancelled');
    default:
      return new AppError('INVITATION_EXPIRED', 'This invitation expired');
  }
}

export function checkUmaAddress(value: string | undefined, field: string): string {
  if (!value) throw AppError.invalidInput('Invalid request', [{ field, message: 'is required' }]);
  if (value.length > 255 || !UMA_ADDRESS.test(value)) {
    throw new AppError('INVALID_UMA_ADDRESS', `${field} is not a UMA address ($user@domain.tld)`, { field });
  }
  return value;
}

export interface NewInvitationInput {
  inviterUma?: string;
  firstName?: string;
  amountToSend?: number;
  expiresAt?: string;
}

/** Member checks of the create request, every problem at once; the UMA address is checked after them. */
export function checkNewInvitation(
  input: NewInvitationInput,
  now: Date,
): { firstName?: string; amountToSend?: number; expiresAt?: string } {
  const errors: FieldError[] = [];
  if (!input.inviterUma) errors.push({ field: 'inviterUma', message: 'is required' });
  if (input.firstName !== undefined && (!input.firstName.trim() || input.firstName.length > 255)) {
    errors.push({ field: 'firstName', message: 'must be between 1 and 255 characters' });
  }
  if (input.amountToSend !== undefined && !(Number.isSafeInteger(input.amountToSend) && input.amountToSend > 0)) {
    errors.push({ field: 'amountToSend', message: 'must be a positive integer (minor units)' });
  }
  let expiresAt: string | undefined;
  if (input.expiresAt !== undefined) {
    const ms = Date.parse(input.expiresAt);
    if (Number.isNaN(ms)) {
      errors.push({
        field: 'expiresAt',
        message: 'must be an ISO 8601 date-time',
        constraint: { format: 'date-time' },
      });
    } else if (ms <= now.getTime()) errors.push({ field: 'expiresAt', message: 'must be in the future' });
    else expiresAt = new Date(ms).toISOString();
  }
  if (errors.length) throw AppError.invalidInput('Invalid invitation', errors);
  return {
    ...(input.firstName ? { firstName: input.firstName.trim() } : {}),
    ...(input.amountToSend ? { amountToSend: input.amountToSend } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** 12 lowercase hex characters: short enough to share, 48 bits so it cannot be guessed in practice. */
export function newInvitationCode(): string {
  return randomBytes(6).toString('hex');
}
