import { AppError, type FieldError } from '../../../../lib/errors';
import { CARD_ELIGIBLE_CURRENCIES } from './card';

export interface FundingAccountView {
  id: string;
  customerId?: string;
  currency: string;
  type: string;
  status: string;
}

/** A card's proposed funding sources, the accounts they name, and the request member they came in (`field`). */
export interface FundingSourcesCheck {
  cardholderId: string;
  sources: readonly string[];
  accounts: ReadonlyMap<string, FundingAccountView>;
  cardCurrency?: string;
  field?: string;
}

/**
 * Checks a card's funding sources: each an active internal account of the cardholder (an
 * embedded wallet too: decisioning uses it only through an ACTIVE delegated key), all in one
 * card-eligible currency (the card's, once it has one). Answers that currency, or throws
 * FUNDING_SOURCE_INELIGIBLE listing every source refused.
 */
export function fundingCurrency(check: FundingSourcesCheck): string {
  const { cardholderId, sources, accounts, cardCurrency, field = 'fundingSources' } = check;
  const errors: FieldError[] = [];
  const currency = cardCurrency ?? accounts.get(sources[0] ?? '')?.currency;
  sources.forEach((id, index) => {
    const at = `${field}[${index}]`;
    const account = accounts.get(id);
    if (!account || account.customerId !== cardholderId) {
      errors.push({ field: at, message: 'is not an internal account of the cardholder' });
    } else if (account.status !== 'ACTIVE') errors.push({ field: at, message: `is ${account.status}, not ACTIVE` });
    else if (!CARD_ELIGIBLE_CURRENCIES.includes(account.currency)) {
      errors.push({
        field: at,
        message: `is in ${account.currency}, not a card currency (${CARD_ELIGIBLE_CURRENCIES.join(', ')})`,
      });
    } else if (account.currency !== currency) {
      errors.push({ field: at, message: `is in ${account.currency}; every funding source must be in ${currency}` });
    }
  });
  if (errors.length || !currency) {
    throw new AppError('FUNDING_SOURCE_INELIGIBLE', 'A funding source cannot fund this card', { errors });
  }
  return currency;
}

/** The sources that are embedded wallets: decisioning needs their delegated key (delegated-key.ts). */
export function walletSourcesOf(
  sources: readonly string[],
  accounts: ReadonlyMap<string, FundingAccountView>,
): string[] {
  return sources.filter((id) => accounts.get(id)?.type === 'EMBEDDED_WALLET');
}
