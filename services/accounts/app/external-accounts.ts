import { customerIsDeleted } from './customers';
import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError, type FieldError } from '../../../lib/errors';
import { validateAlongside } from '../../../lib/field-error-list';
import { newId } from '../../../lib/ids';
import { pageQuery } from '../../../lib/page-cursor';
import {
  accountFingerprint,
  assertTransition,
  EXTERNAL_ACCOUNT_STATUSES,
  initialStatus,
  type ExternalAccount,
  type ExternalAccountStatus,
} from '../domain/external-account';
import {
  validateExternalAccountCreate,
  type ExternalAccountCreate,
  type ExternalAccountOwner,
} from '../domain/external-account-validation';
import { externalAccountCreated, externalAccountDeleted, externalAccountStatusUpdated } from './account-events';
import { DuplicateRecordError, type AccountsStore, type Page } from './accounts-store';
import { readAccountFilter } from './list-filters';

export interface ListExternalAccountsCommand {
  customerId?: string;
  currency?: string;
  limit: number;
  cursor?: string;
}

export interface ExternalAccounts {
  /** `shapeErrors`: what the gateway already refused in the body, reported with ours in one list. */
  create(
    platformId: string,
    request: ExternalAccountCreate,
    owner: ExternalAccountOwner,
    shapeErrors?: FieldError[],
  ): Promise<ExternalAccount>;
  get(platformId: string, id: string): Promise<ExternalAccount>;
  list(
    platformId: string,
    owner: ExternalAccountOwner,
    command: ListExternalAccountsCommand,
  ): Promise<Page<ExternalAccount>>;
  /** `owner` restricts which kind of account may be deleted (the REST path); undefined allows either. */
  delete(platformId: string, id: string, owner?: ExternalAccountOwner): Promise<void>;
  updateStatus(platformId: string, id: string, status: string): Promise<ExternalAccount>;
}

const notFound = () => AppError.notFound('External account');

function ownedBy(account: ExternalAccount, owner: ExternalAccountOwner | undefined): boolean {
  if (owner === 'CUSTOMER') return account.customerId !== undefined;
  if (owner === 'PLATFORM') return account.customerId === undefined;
  return true;
}

export function createExternalAccounts(deps: {
  store: AccountsStore;
  newEvent: NewEvent;
  clock: () => Date;
  /** Whether the account is a trusted SCA beneficiary (then it cannot be deleted). */
  isTrustedBeneficiary?: (platformId: string, id: string) => Promise<boolean>;
}): ExternalAccounts {
  const { store, newEvent } = deps;
  const accounts = store.externalAccounts;

  const get = async (platformId: string, id: string) => {
    const account = await accounts.find(platformId, id);
    if (!account) throw notFound();
    return account;
  };

  return {
    async create(platformId, request, owner, shapeErrors) {
      const draft = validateAlongside(shapeErrors, () => validateExternalAccountCreate(request, owner));
      if (draft.customerId) {
        const customer = await store.customers.find(platformId, draft.customerId);
        if (!customer) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
        if (customer.isDeleted) throw customerIsDeleted();
      }
      const now = deps.clock().toISOString();
      const account: ExternalAccount = {
        ...draft,
        id: newId('ExternalAccount'),
        platformId,
        status: initialStatus(draft),
        fingerprint: accountFingerprint(draft.accountInfo),
        createdAt: now,
        updatedAt: now,
      };
      // A new default is written with a marker first, so a crash before the previous default is
      // cleared leaves work the repair worker completes.
      const clearsPreviousDefault = account.customerId !== undefined && account.defaultUmaDepositAccount;
      try {
        await accounts.insert(account, [externalAccountCreated(newEvent, account)], { clearsPreviousDefault });
      } catch (err) {
        if (err instanceof DuplicateRecordError) throw new AppError('CONFLICT', 'This external account already exists');
        throw err;
      }
      if (clearsPreviousDefault) await accounts.clearPreviousDefaults(account, now);
      return account;
    },

    get,

    async list(platformId, owner, command) {
      const filter = readAccountFilter({ customerId: command.customerId, currency: command.currency });
      const page = pageQuery(command.limit, command.cursor);
      const ownerKey = owner === 'PLATFORM' ? 'PLATFORM' : (filter.customerId ?? 'ANY_CUSTOMER');
      return accounts.list(platformId, { owner: ownerKey, currency: filter.currency }, page);
    },

    async delete(platformId, id, owner) {
      const account = await get(platformId, id);
      if (!ownedBy(account, owner)) throw notFound();
      if (await deps.isTrustedBeneficiary?.(platformId, id)) {
        throw new AppError(
          'BENEFICIARY_TRUSTED',
          'The account is a trusted beneficiary: untrust it first (POST /customers/external-accounts/{id}/untrust)',
        );
      }
      const deleted = await accounts.markDeleted(platformId, id, deps.clock().toISOString(), [
        externalAccountDeleted(newEvent, account),
      ]);
      if (!deleted) throw notFound();
    },

    async updateStatus(platformId, id, status) {
      if (!(EXTERNAL_ACCOUNT_STATUSES as readonly string[]).includes(status)) {
        throw AppError.invalidInput('Invalid status', [{
          field: 'status',
          message: `must be one of ${EXTERNAL_ACCOUNT_STATUSES.join(', ')}`,
          constraint: { enum: [...EXTERNAL_ACCOUNT_STATUSES] },
        }]);
      }
      const to = status as ExternalAccountStatus;
      const current = await get(platformId, id);
      assertTransition(current.status, to);
      const now = deps.clock().toISOString();
      const event = externalAccountStatusUpdated(newEvent, { ...current, status: to }, current.status);
      const transition = { platformId, id, from: current.status, to, now, events: [event] };
      const updated = await accounts.transitionStatus(transition);
      if (updated) return updated;
      // Lost a race: report against the status that won.
      const latest = await get(platformId, id);
      assertTransition(latest.status, to);
      throw new AppError('CONFLICT', 'The external account status changed concurrently; retry');
    },
  };
}
