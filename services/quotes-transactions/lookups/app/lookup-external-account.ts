import { AppError } from '../../../../lib/errors';
import type { Counterparty } from '../adapters/counterparty';
import type { Lookup } from '../domain/lookup';
import { parseLookupRequest, type LookupParameters } from '../domain/lookup-request';
import { mergePayerDataFields, requiredPayerDataFields } from '../domain/payer-data-requirements';
import { describeDestination } from '../domain/receiving-destination';
import type { AccountsDirectory, Caller } from './accounts-directory';
import { createLookupRecorder, type LookupRecorderDeps } from './lookup-recorder';

export interface LookupExternalAccountCommand extends LookupParameters {
  caller: Caller;
}

export interface LookupExternalAccountDeps extends LookupRecorderDeps {
  accounts: AccountsDirectory;
  counterparty: Counterparty;
}

/**
 * Looks up an external account for payment: who sends, what the receiving institution
 * accepts, at which estimated rates and within which bounds. The offer is stored as a Lookup.
 */
export function createLookupExternalAccount(deps: LookupExternalAccountDeps) {
  const recorder = createLookupRecorder(deps);

  return async function lookupExternalAccount(command: LookupExternalAccountCommand): Promise<Lookup> {
    const { caller } = command;
    const request = parseLookupRequest(command);
    const found = await deps.accounts.lookupParties(caller, {
      customerId: request.sender.customerId,
      accountId: request.accountId,
    });
    const senderCurrency = recorder.senderCurrencyOf(request.sender, found.sender);

    const { account } = found;
    if (!account) throw new AppError('REFERENCE_NOT_FOUND', `External account ${request.accountId} not found`);
    const destination = describeDestination(account);

    const answer = await deps.counterparty.lookup({ destination, sender: request.sender });
    return recorder.record({
      caller,
      target: { accountId: account.id },
      sender: request.sender,
      senderCurrency,
      currencies: answer.currencies,
      requiredPayerDataFields: mergePayerDataFields(requiredPayerDataFields(destination), answer.requiredPayerData),
    });
  };
}

export type LookupExternalAccount = ReturnType<typeof createLookupExternalAccount>;
