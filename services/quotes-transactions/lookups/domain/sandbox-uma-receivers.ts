import { SANDBOX_MAGIC_NAMES, type SandboxOutcome } from './sandbox-counterparty-behaviour';
import { receivableBounds } from '../../shared/domain/receivable-bounds';

/** The currency an accepted sandbox UMA receiver takes when its address names none. */
export const DEFAULT_UMA_RECEIVER_CURRENCY = 'USD';

/** The local part that has no receiver behind it: the lookup answers UMA_NOT_FOUND. */
export const SANDBOX_UNKNOWN_RECEIVER = 'sandbox.not.found';

export interface SandboxUmaReceiver {
  outcome: SandboxOutcome;
  /** What an accepted receiver takes. */
  currency: string;
}

/**
 * How the sandbox receiver's VASP answers a lookup of `$local@domain`, with the same magic as
 * external accounts: the local part, compared without regard to case and with a trailing
 * currency segment set aside, is the magic beneficiary name with dots for spaces
 * (`$sandbox.lnurlp.failed@…` is refused like the beneficiary "Sandbox Lnurlp Failed"), or
 * `sandbox.not.found` (UMA_NOT_FOUND). Any other receiver accepts the currency its local part
 * ends with (`$maria.mxn@…` takes MXN), else USD.
 */
export function sandboxUmaReceiver(umaAddress: string): SandboxUmaReceiver {
  const local = umaAddress.slice(1, umaAddress.lastIndexOf('@')).toLowerCase();
  const dot = local.lastIndexOf('.');
  const suffix = dot > 0 ? local.slice(dot + 1).toUpperCase() : '';
  const named = receivableBounds(suffix) !== undefined;
  const name = named ? local.slice(0, dot) : local;
  const currency = named ? suffix : DEFAULT_UMA_RECEIVER_CURRENCY;
  if (name === SANDBOX_UNKNOWN_RECEIVER) {
    return {
      currency,
      outcome: { kind: 'refused', code: 'UMA_NOT_FOUND', message: 'No receiver exists at this UMA address' },
    };
  }
  return { currency, outcome: SANDBOX_MAGIC_NAMES[name.replace(/\./g, ' ')] ?? { kind: 'accepted' } };
}
