import { AppError } from '../../../lib/errors';
import type { EndUserTermsConsent } from './customer';

/** The End User Terms customers accept: the current version and the versions still on record. */
export interface EndUserTermsCatalogue {
  version: string;
  url: string;
  /** Every version a consent may name: the current one first, then earlier ones. */
  knownVersions: readonly string[];
}

/** END_USER_TERMS_VERSION_NOT_FOUND unless the consent names a known version. */
export function assertKnownTermsVersion(terms: EndUserTermsCatalogue, consent: EndUserTermsConsent | undefined): void {
  if (consent && !terms.knownVersions.includes(consent.termsVersion)) {
    throw new AppError(
      'END_USER_TERMS_VERSION_NOT_FOUND',
      `End User Terms version ${consent.termsVersion} is not supported; the current version is ${terms.version}`,
      {
        field: 'endUserTermsConsent.termsVersion',
        currentVersion: terms.version,
      },
    );
  }
}

/** Whether the customer's recorded consent is to the current version (quotes require it). */
export function acceptsCurrentTerms(terms: EndUserTermsCatalogue, consent: EndUserTermsConsent | undefined): boolean {
  return consent?.termsVersion === terms.version;
}
