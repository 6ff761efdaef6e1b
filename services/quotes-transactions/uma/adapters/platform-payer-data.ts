import { unlessAbsent } from '../../../../lib/errors';
import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import {
  isCustomerInfoFieldName,
  mergePayerDataFields,
  type PayerDataField,
} from '../../lookups/domain/payer-data-requirements';

/**
 * The counterparty fields a receiving platform requires (PATCH /config, per currency) for the currencies it receives
 * in.
 */
export type PlatformPayerData = (platformId: string, currencies: string[]) => Promise<PayerDataField[]>;

/** From the platform configuration the accounts service keeps; a platform never configured requires nothing. */
export function createPlatformPayerData(peers: Pick<PeerClients, 'accounts'>): PlatformPayerData {
  return async (platformId, currencies) => {
    const config = (await unlessAbsent(peers.accounts.getPlatformConfig({}, { platformId })))?.config;
    const fields = (config?.supportedCurrencies ?? [])
      .filter((c) => currencies.includes(c.currencyCode))
      .flatMap((c) => c.requiredCounterpartyFields)
      .flatMap((f) => (isCustomerInfoFieldName(f.name) ? [{ name: f.name, mandatory: f.mandatory }] : []));
    return mergePayerDataFields(fields);
  };
}
