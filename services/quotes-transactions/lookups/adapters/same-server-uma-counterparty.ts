import { AppError } from '../../../../lib/errors';
import type { UmaCounterparty } from '../app/lookup-uma';
import type { UmaAddressDirectory } from '../../payments/app/same-server-payments';
import { receivableCurrencies, umaReceiverFor } from '../../payments/domain/same-server-receiver';

/**
 * The receiver VASP of an UMA address: this server itself when a customer of one of its platforms
 * holds the address (it receives the currencies of that customer's holding accounts), otherwise
 * the outside counterparty. A deleted customer's address is not found; an address several other
 * platforms use cannot be told apart and is refused.
 */
export function createSameServerUmaCounterparty(
  deps: { directory: UmaAddressDirectory; outside: UmaCounterparty },
): UmaCounterparty {
  return {
    async lookupUma(request) {
      const receiver = umaReceiverFor(
        await deps.directory.holders(request.receiverUmaAddress),
        request.platformId ?? '',
      );
      if (receiver.kind === 'OUTSIDE') return deps.outside.lookupUma(request);
      if (receiver.kind === 'AMBIGUOUS') {
        throw new AppError(
          'INVALID_RECEIVER',
          `${request.receiverUmaAddress} names customers of several platforms on this server`,
        );
      }
      if (receiver.holder.isDeleted) throw new AppError('UMA_NOT_FOUND', `${request.receiverUmaAddress} was deleted`);
      const currencies = receivableCurrencies(receiver.holder);
      if (!currencies.length) {
        throw new AppError('UMA_NOT_FOUND', `${request.receiverUmaAddress} has no account to receive in`);
      }
      return { currencies, requiredPayerData: [] };
    },
  };
}
