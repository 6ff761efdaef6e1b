import { AppError, type FieldError } from '../../../../lib/errors';
import { idPattern, isId } from '../../../../lib/ids';

/**
 * `$user@domain.tld`: a user part of letters, digits and . _ + -, then a host with a TLD, or localhost:PORT (another
 * sandbox server on this machine).
 */
export const UMA_ADDRESS_PATTERN = '^\\$[A-Za-z0-9._+-]{1,64}@'
  + '(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}|localhost:[0-9]{1,5})$';
const UMA_ADDRESS = new RegExp(UMA_ADDRESS_PATTERN);

export function isUmaAddress(value: string): boolean {
  return value.length <= 255 && UMA_ADDRESS.test(value);
}

/** Who pays: a customer of the platform, an UMA address, or both. */
export interface LookupSender {
  customerId?: string;
  umaAddress?: string;
}

export interface LookupRequest {
  accountId: string;
  sender: LookupSender;
}

/** Raw parameters as they arrive; an empty string means "not given". */
export interface LookupParameters {
  accountId?: string;
  senderUmaAddress?: string;
  customerId?: string;
}

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/** Checks the sender parameters, adding their problems to `errors`. */
function checkSender(
  { senderUmaAddress, customerId }: Omit<LookupParameters, 'accountId'>,
  errors: FieldError[],
): void {
  if (!given(senderUmaAddress) && !given(customerId)) {
    const message = 'senderUmaAddress or customerId is required';
    errors.push({ field: 'senderUmaAddress', message }, { field: 'customerId', message });
  }
  if (given(senderUmaAddress) && !isUmaAddress(senderUmaAddress)) {
    errors.push({
      field: 'senderUmaAddress',
      message: 'must be an UMA address such as $alice@example.com',
      constraint: { pattern: UMA_ADDRESS_PATTERN },
    });
  }
  if (given(customerId) && !isId('Customer', customerId)) {
    errors.push({
      field: 'customerId',
      message: 'must be Customer:<uuid>',
      constraint: { pattern: idPattern('Customer') },
    });
  }
}

function senderOf({ senderUmaAddress, customerId }: Omit<LookupParameters, 'accountId'>): LookupSender {
  const sender: LookupSender = {};
  if (given(customerId)) sender.customerId = customerId;
  if (given(senderUmaAddress)) sender.umaAddress = senderUmaAddress;
  return sender;
}

/** Checks every parameter and reports all problems at once (INVALID_INPUT with details.errors). */
export function parseLookupRequest(params: LookupParameters): LookupRequest {
  const errors: FieldError[] = [];
  const { accountId } = params;
  if (!given(accountId)) errors.push({ field: 'accountId', message: 'is required' });
  else if (!isId('ExternalAccount', accountId)) {
    errors.push({
      field: 'accountId',
      message: 'must be ExternalAccount:<uuid>',
      constraint: { pattern: idPattern('ExternalAccount') },
    });
  }
  checkSender(params, errors);
  if (errors.length > 0) throw AppError.invalidInput('Invalid lookup parameters', errors);
  return { accountId: accountId!, sender: senderOf(params) };
}

export interface UmaLookupParameters extends Omit<LookupParameters, 'accountId'> {
  receiverUmaAddress?: string;
}

/**
 * The receiver's address is the looked-up resource: malformed, it is INVALID_UMA_ADDRESS before
 * anything else; the sender parameters are then checked as for an external-account lookup.
 */
export function parseUmaLookupRequest(
  params: UmaLookupParameters,
): { receiverUmaAddress: string; sender: LookupSender } {
  const { receiverUmaAddress } = params;
  if (!given(receiverUmaAddress) || !isUmaAddress(receiverUmaAddress)) {
    throw new AppError('INVALID_UMA_ADDRESS', 'The receiver UMA address is malformed; expected $user@domain.tld', {
      field: 'receiverUmaAddress',
      constraint: { pattern: UMA_ADDRESS_PATTERN },
    });
  }
  const errors: FieldError[] = [];
  checkSender(params, errors);
  if (errors.length > 0) throw AppError.invalidInput('Invalid lookup parameters', errors);
  return { receiverUmaAddress, sender: senderOf(params) };
}
