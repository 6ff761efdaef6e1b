import type { ErrorCode } from '../../../../lib/errors';

/**
 * How the sandbox receiving institution answers a lookup. It accepts, unless the external
 * account's beneficiary name (individual `fullName` or business `legalName`) is one of the
 * magic names below, compared without regard to case or surrounding spaces. Each magic name
 * passes the accounts validation, so every counterparty failure can be produced from the API.
 */
export type SandboxOutcome =
  | { kind: 'accepted' }
  | { kind: 'refused'; code: ErrorCode; message: string }
  /** The counterparty call breaks in an unexpected way (an internal error, not a refusal). */
  | { kind: 'crashed' };

export const SANDBOX_MAGIC_NAMES: Readonly<Record<string, Exclude<SandboxOutcome, { kind: 'accepted' }>>> = {
  'sandbox unsupported version': {
    kind: 'refused',
    code: 'UNSUPPORTED_UMA_VERSION',
    message: 'The receiving institution does not support this UMA version',
  },
  'sandbox lookup failed': {
    kind: 'refused',
    code: 'LOOKUP_REQUEST_FAILED',
    message: 'The receiving institution could not complete the lookup',
  },
  'sandbox pubkey fetch error': {
    kind: 'refused',
    code: 'COUNTERPARTY_PUBKEY_FETCH_ERROR',
    message: "The receiving institution's public keys could not be fetched",
  },
  'sandbox no compatible version': {
    kind: 'refused',
    code: 'NO_COMPATIBLE_UMA_VERSION',
    message: 'No UMA version is supported by both institutions',
  },
  'sandbox lnurlp failed': {
    kind: 'refused',
    code: 'LNURLP_REQUEST_FAILED',
    message: 'The LNURLP request to the receiving institution failed',
  },
  'sandbox internal error': { kind: 'crashed' },
};

export function sandboxOutcomeFor(beneficiaryName: string | undefined): SandboxOutcome {
  const magic = beneficiaryName ? SANDBOX_MAGIC_NAMES[beneficiaryName.trim().toLowerCase()] : undefined;
  return magic ?? { kind: 'accepted' };
}
