import { AppError } from '../../../../lib/errors';
import type { LookupSender } from '../domain/lookup-request';
import type { PayerDataField } from '../domain/payer-data-requirements';
import type { ReceivableBounds } from '../../shared/domain/receivable-bounds';
import type { ReceivingDestination } from '../domain/receiving-destination';
import { sandboxOutcomeFor } from '../domain/sandbox-counterparty-behaviour';

/** What the receiving institution answers when asked about one of its accounts. */
export interface CounterpartyAnswer {
  /** Currency codes the account can receive. */
  currencies: string[];
  /** Payer data the institution asks for on top of the platform's own rules. */
  requiredPayerData: PayerDataField[];
  /** The institution's own bounds per currency code, in our smallest units (absent: our table's). */
  bounds?: Record<string, ReceivableBounds>;
}

/**
 * The counterparty port: the receiving institution the lookup asks. A refusal is an AppError
 * with the counterparty code (UNSUPPORTED_UMA_VERSION, LNURLP_REQUEST_FAILED, ...); anything
 * else thrown is an internal failure.
 */
export interface Counterparty {
  lookup(request: { destination: ReceivingDestination; sender: LookupSender }): Promise<CounterpartyAnswer>;
}

/**
 * The embedded default: the account receives its own currency, no extra payer data, unless
 * the beneficiary carries a magic name (domain/sandbox-counterparty-behaviour.ts).
 */
export function createSandboxCounterparty(): Counterparty {
  return {
    async lookup({ destination }) {
      const outcome = sandboxOutcomeFor(destination.beneficiaryName);
      if (outcome.kind === 'refused') throw new AppError(outcome.code, outcome.message);
      if (outcome.kind === 'crashed') throw new Error('sandbox counterparty failed unexpectedly');
      return { currencies: [destination.currency], requiredPayerData: [] };
    },
  };
}
