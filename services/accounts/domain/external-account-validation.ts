import { AppError, type FieldError } from '../../../lib/errors';
import {
  accountCurrencies,
  accountTypeSpec,
  EXTERNAL_ACCOUNT_TYPE_NAMES,
  type AccountTypeSpec,
  type MemberCheck,
} from '../../../lib/contract/external-account-types';
import {
  checkAbaRoutingNumber,
  checkBic,
  checkBrazilianTaxId,
  checkClabe,
  checkIban,
  checkPixKey,
  PIX_KEY_TYPES,
  type PixKeyType,
} from './bank-identifiers';
import { OWNERSHIP_TYPES, type ExternalAccountDraft } from './external-account';
import { checkBolt11Invoice, checkBolt12Offer, checkWalletAddress, type WalletAccountType } from './wallet-addresses';

/*
 * The rules of an external account create request. Its shape (members, formats, enums) is the
 * contract's, checked at the edge from the table of account types; here are what a schema cannot
 * say: check digits, the currency each type holds, the members each rail needs, and the members
 * that exclude one another. The request is the typed message; `accountInfo` is read by the table.
 */

export type ExternalAccountOwner = 'CUSTOMER' | 'PLATFORM';

/** The create request message (CreateExternalAccountRequest), as the domain reads it. */
export interface ExternalAccountCreate {
  customerId?: string;
  currency?: string;
  platformAccountId?: string;
  ownershipType?: string;
  defaultUmaDepositAccount?: boolean;
  accountInfo?: object;
}

type Info = Record<string, unknown>;

/** The domain rule each `check` of the table names. */
function checkMember(check: MemberCheck, value: string, info: Info): string | undefined {
  switch (check) {
    case 'iban':
      return checkIban(value);
    case 'bic':
      return checkBic(value);
    case 'abaRouting':
      return /^[0-9]{9}$/.test(value) ? checkAbaRoutingNumber(value) : 'must be 9 digits';
    case 'clabe':
      return /^[0-9]{18}$/.test(value) ? checkClabe(value) : 'must be 18 digits';
    case 'brazilianTaxId':
      return /^[0-9]+$/.test(value) ? checkBrazilianTaxId(value) : 'must be digits';
    case 'pixKey': {
      const type = info.pixKeyType as PixKeyType;
      return PIX_KEY_TYPES.includes(type) ? checkPixKey(type, value) : undefined;
    }
    case 'walletAddress':
      return checkWalletAddress(info.accountType as WalletAccountType, value);
    case 'bolt11':
      return checkBolt11Invoice(value);
    case 'bolt12':
      return checkBolt12Offer(value);
  }
}

const given = (info: Info, member: string) => typeof info[member] === 'string' && info[member] !== '';

/** The rails whose members are all given (every rail of a type whose rails need nothing more). */
function reachableRails(spec: AccountTypeSpec, info: Info): string[] {
  return spec.rails.filter((rail) => (spec.railMembers?.[rail] ?? []).every((m) => given(info, m)));
}

/** The rails an account reaches when none are asked for: every rail its members allow. */
export function defaultPaymentRails(info: Info): string[] | undefined {
  const spec = accountTypeSpec(info.accountType as string | undefined);
  if (!spec || spec.kind !== 'BANK') return undefined;
  return reachableRails(spec, info);
}

/** A stored account's info with its rails (accounts stored before rails existed read with the defaults). */
export function withPaymentRails(info: Info): Info {
  if (Array.isArray(info.paymentRails) && info.paymentRails.length) return info;
  const rails = defaultPaymentRails(info);
  return rails ? { ...info, paymentRails: rails } : info;
}

/** Drops absent members, recursively (a typed message has them as undefined). */
function present(value: unknown): unknown {
  if (Array.isArray(value) || typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, present(v)]));
}

function railErrors(
  spec: AccountTypeSpec,
  info: Info,
  asked: string[],
  fail: (field: string, message: string) => void,
): string[] {
  for (const rail of asked) {
    if (!spec.rails.includes(rail)) fail('accountInfo.paymentRails', `must each be one of ${spec.rails.join(', ')}`);
  }
  if (asked.length) {
    for (const rail of asked) {
      for (const m of spec.railMembers?.[rail] ?? []) {
        if (!given(info, m)) fail(`accountInfo.${m}`, `is required for ${rail}`);
      }
    }
    return [...new Set(asked)];
  }
  const rails = reachableRails(spec, info);
  if (!rails.length) {
    const options = spec.rails.map((rail) => `${rail}: ${(spec.railMembers?.[rail] ?? []).join(', ')}`).join('; ');
    const first = spec.rails[0];
    for (const m of spec.railMembers?.[first] ?? []) {
      if (!given(info, m)) {
        fail(`accountInfo.${m}`, `is required for ${first} (the members each rail needs: ${options})`);
      }
    }
  }
  return rails;
}

/** accountInfo: the type's own members, checked by the rules the table names. */
function readAccountInfo(raw: Info, fail: (field: string, message: string) => void): Info | undefined {
  const type = raw.accountType as string | undefined;
  const spec = accountTypeSpec(type);
  if (!spec) {
    fail(
      'accountInfo.accountType',
      type === undefined ? 'is required' : `must be one of ${EXTERNAL_ACCOUNT_TYPE_NAMES.join(', ')}`,
    );
    return undefined;
  }
  const info: Info = { accountType: type };
  for (const [member, rule] of Object.entries(spec.members)) {
    const value = raw[member];
    if (typeof value !== 'string' || value === '') {
      if (rule.required) fail(`accountInfo.${member}`, 'is required');
      continue;
    }
    info[member] = value;
    const problem = rule.check && checkMember(rule.check, value, { ...raw, accountType: type });
    if (problem) fail(`accountInfo.${member}`, problem);
  }
  if (spec.exactlyOneOf && spec.exactlyOneOf.filter((m) => given(info, m)).length !== 1) {
    fail('accountInfo', `exactly one of ${spec.exactlyOneOf.join(', ')} is required`);
  }
  if (spec.atLeastOneOf && !spec.atLeastOneOf.some((m) => given(info, m))) {
    fail('accountInfo', `at least one of ${spec.atLeastOneOf.join(', ')} is required`);
  }

  const beneficiary = present(raw.beneficiary) as Info | undefined;
  if (spec.kind === 'BANK' && !beneficiary?.beneficiaryType) fail('accountInfo.beneficiary', 'is required');
  if (beneficiary?.beneficiaryType) info.beneficiary = beneficiary;
  if (spec.kind === 'BANK') {
    const asked = Array.isArray(raw.paymentRails) ? (raw.paymentRails as string[]) : [];
    const rails = railErrors(spec, info, asked, fail);
    const businessOnly = spec.beneficiary?.businessOnlyOnRails?.filter((rail) => rails.includes(rail)) ?? [];
    if (businessOnly.length && beneficiary?.beneficiaryType === 'INDIVIDUAL') {
      fail('accountInfo.beneficiary.beneficiaryType', `must be BUSINESS for ${businessOnly.join(', ')}`);
    }
    info.paymentRails = rails;
  }
  return info;
}

/**
 * An external account create request: the customer form (a missing `customerId` means the
 * platform's own account) or the platform form (no `customerId`, no `defaultUmaDepositAccount`).
 * Every broken rule is reported at once.
 */
export function validateExternalAccountCreate(
  request: ExternalAccountCreate,
  owner: ExternalAccountOwner,
): ExternalAccountDraft {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  const byCustomer = owner === 'CUSTOMER';
  const accountInfo = request.accountInfo
    ? readAccountInfo(request.accountInfo as Info, fail)
    : (fail('accountInfo', 'is required'), undefined);
  const type = accountInfo?.accountType as string | undefined;
  const currencies = type ? accountCurrencies(type) : [];
  if (!request.currency) fail('currency', 'is required');
  else if (type && !currencies.includes(request.currency)) {
    errors.push({
      field: 'currency',
      message: `must be one of ${currencies.join(', ')}`,
      constraint: { enum: [...currencies] },
    });
  }
  if (request.ownershipType !== undefined && !(OWNERSHIP_TYPES as readonly string[]).includes(request.ownershipType)) {
    fail('ownershipType', `must be one of ${OWNERSHIP_TYPES.join(', ')}`);
  }
  if (errors.length) throw AppError.invalidInput('Invalid external account', errors);
  const customerId = byCustomer ? request.customerId : undefined;
  return present({
    customerId,
    currency: request.currency!,
    platformAccountId: request.platformAccountId,
    ownershipType: request.ownershipType,
    defaultUmaDepositAccount: (customerId !== undefined && request.defaultUmaDepositAccount) || false,
    accountInfo: accountInfo!,
  }) as ExternalAccountDraft;
}
