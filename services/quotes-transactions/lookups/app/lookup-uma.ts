import type { CounterpartyAnswer } from '../adapters/counterparty';
import type { Lookup } from '../domain/lookup';
import { parseUmaLookupRequest, type LookupSender, type UmaLookupParameters } from '../domain/lookup-request';
import { mergePayerDataFields } from '../domain/payer-data-requirements';
import type { AccountsDirectory, Caller } from './accounts-directory';
import { createLookupRecorder, type LookupRecorderDeps } from './lookup-recorder';

/**
 * The receiver's VASP, asked about one of its UMA addresses. A refusal is an AppError with its
 * code (UMA_NOT_FOUND, UNSUPPORTED_UMA_VERSION, LNURLP_REQUEST_FAILED, ...); anything else
 * thrown is an internal failure.
 */
export interface UmaCounterparty {
  /** `platformId`: the sender's platform (a receiver on this server is looked for there first). */
  lookupUma(
    request: { receiverUmaAddress: string; sender: LookupSender; platformId?: string },
  ): Promise<CounterpartyAnswer>;
}

export interface LookupUmaCommand extends UmaLookupParameters {
  caller: Caller;
}

export interface LookupUmaDeps extends LookupRecorderDeps {
  accounts: Pick<AccountsDirectory, 'senderCurrency'>;
  counterparty: UmaCounterparty;
}

/**
 * Looks up an UMA address for payment, as the external-account lookup does an account: what the
 * receiver accepts, at which estimated rates and within which bounds, stored as a Lookup that a
 * quote to the address must name.
 */
export function createLookupUma(deps: LookupUmaDeps) {
  const recorder = createLookupRecorder(deps);

  return async function lookupUma(command: LookupUmaCommand): Promise<Lookup> {
    const { caller } = command;
    const { receiverUmaAddress, sender } = parseUmaLookupRequest(command);
    const senderCurrency = await recorder.senderCurrency(caller, sender);
    const answer = await deps.counterparty.lookupUma({ receiverUmaAddress, sender, platformId: caller.platformId });
    return recorder.record({
      caller,
      target: { receiverUmaAddress },
      sender,
      senderCurrency,
      currencies: answer.currencies,
      requiredPayerDataFields: mergePayerDataFields(answer.requiredPayerData),
      ...(answer.bounds ? { bounds: answer.bounds } : {}),
    });
  };
}

export type LookupUma = ReturnType<typeof createLookupUma>;
