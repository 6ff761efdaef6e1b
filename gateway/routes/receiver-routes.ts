import { type Request } from 'express';
import type { LookupExternalAccountResponse, LookupUmaResponse } from '../../gen/quotes_transactions/v1/lookup';
import { AppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { OperationHandlers } from './operation-routes';

/** A single-valued query parameter; "" when absent. A repeated parameter is refused. */
function queryParam(req: Request, name: string): string {
  const value = req.query[name];
  if (value === undefined) return '';
  if (typeof value !== 'string') {
    throw AppError.invalidInput(`Invalid query parameter ${name}`, [{ field: name, message: 'must be given once' }]);
  }
  return value;
}

/** The REST ReceiverLookupResponse members both lookups share, field by field. */
function toReceiverLookupJson(response: LookupExternalAccountResponse | LookupUmaResponse) {
  return {
    supportedCurrencies: response.supportedCurrencies.map((preference) => {
      const currency = preference.currency;
      if (!currency) throw new Error('lookup response without a currency');
      return {
        currency: { code: currency.code, name: currency.name, symbol: currency.symbol, decimals: currency.decimals },
        estimatedExchangeRate: preference.estimatedExchangeRate,
        min: preference.min,
        max: preference.max,
      };
    }),
    requiredPayerDataFields: response.requiredPayerDataFields.map((field) => ({
      name: field.name,
      mandatory: field.mandatory,
    })),
    lookupId: response.lookupId,
  };
}

/** The REST ReceiverExternalAccountLookupResponse. */
export function toExternalAccountLookupJson(response: LookupExternalAccountResponse) {
  return { ...toReceiverLookupJson(response), accountId: response.accountId };
}

/** The REST ReceiverUmaLookupResponse. */
export function toUmaLookupJson(response: LookupUmaResponse) {
  return { ...toReceiverLookupJson(response), receiverUmaAddress: response.receiverUmaAddress };
}

/** Receiver lookups: what an external account or an UMA address can be paid in, before quoting. */
export function receiverRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  routes.on('lookupExternalAccount', async (req, res) => {
    const response = await peers.lookup.lookupExternalAccount(
      {
        accountId: req.params.accountId,
        senderUmaAddress: queryParam(req, 'senderUmaAddress'),
        customerId: queryParam(req, 'customerId'),
      },
      callContext(res),
    );
    res.status(200).json(toExternalAccountLookupJson(response));
  });
  routes.on('lookupUma', async (req, res) => {
    const response = await peers.lookup.lookupUma(
      {
        receiverUmaAddress: req.params.receiverUmaAddress,
        senderUmaAddress: queryParam(req, 'senderUmaAddress'),
        customerId: queryParam(req, 'customerId'),
      },
      callContext(res),
    );
    res.status(200).json(toUmaLookupJson(response));
  });
  return routes;
}
