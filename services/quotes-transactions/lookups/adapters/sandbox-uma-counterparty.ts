import { AppError } from '../../../../lib/errors';
import type { UmaCounterparty } from '../app/lookup-uma';
import { sandboxUmaReceiver } from '../domain/sandbox-uma-receivers';

/**
 * The embedded default receiver VASP: it accepts, in the currency the address names, asking for
 * the payer's full name, unless the address carries a magic local part
 * (domain/sandbox-uma-receivers.ts).
 */
export function createSandboxUmaCounterparty(): UmaCounterparty {
  return {
    async lookupUma({ receiverUmaAddress }) {
      const { outcome, currency } = sandboxUmaReceiver(receiverUmaAddress);
      if (outcome.kind === 'refused') throw new AppError(outcome.code, outcome.message);
      if (outcome.kind === 'crashed') throw new Error('sandbox UMA counterparty failed unexpectedly');
      return { currencies: [currency], requiredPayerData: [{ name: 'FULL_NAME', mandatory: true }] };
    },
  };
}
