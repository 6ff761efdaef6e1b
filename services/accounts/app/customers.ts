import { randomBytes } from 'node:crypto';
import type { CustomerFields } from '../../../gen/accounts/v1/customer_requests';
import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError, type FieldError } from '../../../lib/errors';
import { validateAlongside } from '../../../lib/field-error-list';
import { newId } from '../../../lib/ids';
import { pageQuery } from '../../../lib/page-cursor';
import { addedCurrencies, applyCustomerChanges, newCustomer, type Customer } from '../domain/customer';
import { validateCustomerCreate, validateCustomerUpdate } from '../domain/customer-validation';
import { restShape } from '../domain/request-shape';
import { assertKnownTermsVersion, type EndUserTermsCatalogue } from '../domain/end-user-terms';
import { embeddedWalletStep, holdingAccountSteps, type ProvisioningStep } from '../domain/provisioning-plan';
import { customerCreated, customerUpdated } from './account-events';
import type { AccountProvisioning } from './account-provisioning';
import type { CustomerEmailChange, CustomerUpdateOutcome } from './customer-email-change';
import { DuplicateRecordError, type AccountsStore, type CustomerFilter, type Page } from './accounts-store';
import { readCustomerFilter, type CustomerQuery } from './list-filters';
import type { PlatformSettingsView, Platforms } from './platforms';
import type { AccountBalance, BalanceSource, PiiSealer, WalletSignature } from './service-ports';
import { customerDeleted } from './account-events';

export interface ListCustomersCommand extends CustomerQuery {
  limit: number;
  cursor?: string;
}

/** A PATCH of one customer: the members to change, and the shape errors the contract already found. */
export interface CustomerUpdate {
  platformId: string;
  id: string;
  changes: CustomerFields | undefined;
  signature?: WalletSignature;
  shapeErrors?: FieldError[];
}

export interface Customers {
  /** `shapeErrors`: what the contract already refused in the request (and left out), reported with ours in one list. */
  create(platformId: string, fields: CustomerFields | undefined, shapeErrors?: FieldError[]): Promise<Customer>;
  get(platformId: string, id: string): Promise<Customer>;
  list(platformId: string, command: ListCustomersCommand): Promise<Page<Customer>>;
  /** A change of an email tied to wallet credentials follows the signed retry (`signature`). */
  update(update: CustomerUpdate): Promise<CustomerUpdateOutcome>;
  /** Marks the customer deleted, unless it holds funds (CONFLICT) or already is (CUSTOMER_DELETED). */
  remove(platformId: string, id: string): Promise<Customer>;
}

/** What every write naming a deleted customer answers (410, the reference's CUSTOMER_DELETED). */
export function customerIsDeleted(): AppError {
  return new AppError('CUSTOMER_DELETED', 'The customer has been deleted');
}

function duplicateError(err: DuplicateRecordError): AppError {
  if (err.key === 'platformCustomerId') {
    return new AppError('CONFLICT', 'A customer with this platformCustomerId already exists', {
      field: 'platformCustomerId',
    });
  }
  return new AppError('CONFLICT', 'This UMA address is already taken', { field: 'umaAddress' });
}

async function written<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof DuplicateRecordError) throw duplicateError(err);
    throw err;
  }
}

export interface CustomersDeps {
  store: AccountsStore;
  platforms: Platforms;
  provisioning: AccountProvisioning;
  emailChange: CustomerEmailChange;
  sealer: PiiSealer;
  terms: EndUserTermsCatalogue;
  newEvent: NewEvent;
  clock: () => Date;
  /** Balances of the customer's internal accounts (the ledger), read before a deletion. */
  balances?: BalanceSource;
}

/**
 * Customers and the internal accounts they hold. The customer is written first with a
 * `provisioning` marker listing every account that must exist; the accounts are then opened
 * (idempotently, by derived id) and the marker cleared, so a crash in between is completed by
 * the repair worker instead of leaving a customer without accounts.
 */
export function createCustomers(deps: CustomersDeps): Customers {
  const { store, newEvent, sealer } = deps;

  /** Closes the accounts in the ledger; a ledger that cannot close yet is only asked for their balances. */
  async function closeAll(
    platformId: string,
    accounts: Array<{ id: string; currency: string }>,
  ): Promise<{ closed: boolean; holding: Map<string, AccountBalance> }> {
    if (!deps.balances) return { closed: true, holding: new Map() };
    if (deps.balances.closeAccounts) {
      return deps.balances.closeAccounts(platformId, accounts.map((a) => ({ accountId: a.id, currency: a.currency })));
    }
    const balances = await deps.balances.balancesOf(platformId, accounts.map((a) => a.id));
    const holding = new Map([...balances].filter(([, b]) => b.total !== 0 || b.available !== 0));
    return { closed: holding.size === 0, holding };
  }

  /** A wallet for customers of platforms with embedded-wallet support, once they have an email. */
  const walletSteps = (
    settings: PlatformSettingsView,
    customer: Customer,
    hadEmail: boolean,
    now: string,
  ): ProvisioningStep[] =>
    settings.embeddedWallets && customer.email && !hadEmail
      ? [embeddedWalletStep(customer.id, settings.walletCurrency, now)]
      : [];

  const get = async (platformId: string, id: string) => {
    const customer = await store.customers.find(platformId, id);
    if (!customer) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
    return customer;
  };

  return {
    async create(platformId, fields, shapeErrors) {
      const settings = await deps.platforms.settingsOf(platformId);
      const draft = validateAlongside(shapeErrors, () => {
        const valid = validateCustomerCreate(fields, settings.supportedCurrencies);
        assertKnownTermsVersion(deps.terms, valid.profile.endUserTermsConsent);
        return valid;
      });
      const id = newId('Customer');
      const now = deps.clock().toISOString();
      const { identifier } = draft.profile;
      const customer = newCustomer(
        draft,
        {
          id,
          platformId,
          platformCustomerId: id.slice('Customer:'.length),
          umaAddress: `$${randomBytes(6).toString('hex')}@${settings.umaDomain}`,
          ...(identifier !== undefined ? { sealedIdentifier: sealer.seal(identifier, id) } : {}),
        },
        settings.supportedCurrencies,
        now,
      );
      customer.provisioning = [
        ...holdingAccountSteps(id, customer.currencies, now),
        ...walletSteps(settings, customer, false, now),
      ];
      await written(() => store.customers.insert(customer, [customerCreated(newEvent, customer)]));
      await deps.provisioning.completeCustomer(customer, customer.provisioning);
      const { provisioning: _marker, ...created } = customer;
      return created;
    },

    get,

    async list(platformId, command) {
      const filter: CustomerFilter = readCustomerFilter(command);
      return store.customers.list(platformId, filter, pageQuery(command.limit, command.cursor));
    },

    async remove(platformId, id) {
      const current = await get(platformId, id);
      if (current.isDeleted) throw customerIsDeleted();
      const accounts = (await store.internalAccounts.list(platformId, { owner: id }, { limit: 100 })).items;
      // The accounts are closed first, each only while empty, in the ledger write every credit checks:
      // a concurrent credit either lands first (and the deletion is refused) or is refused itself.
      const closing = await closeAll(platformId, accounts);
      if (!closing.closed) {
        throw new AppError('CONFLICT', 'The customer still holds funds: move them out before deleting it', {
          accounts: accounts.filter((a) => closing.holding.has(a.id)).map((a) => ({
            id: a.id,
            currency: a.currency,
            totalBalance: closing.holding.get(a.id)!.total,
          })),
        });
      }
      const now = deps.clock().toISOString();
      const next: Customer = { ...current, isDeleted: true, updatedAt: now, revision: current.revision + 1 };
      if (!(await store.customers.replace(next, [customerDeleted(newEvent, next)]))) {
        await deps.balances?.reopenAccounts?.(platformId, accounts.map((a) => a.id));
        throw new AppError('CONFLICT', 'The customer was changed by another request; retry');
      }
      return next;
    },

    async update({ platformId, id, changes: fields, signature = {}, shapeErrors }) {
      const current = await get(platformId, id);
      // The write is conditional on the revision read, which a deletion moves on: it cannot win over one.
      if (current.isDeleted) throw customerIsDeleted();
      const settings = await deps.platforms.settingsOf(platformId);
      const changes = validateAlongside(shapeErrors, () => {
        const valid = validateCustomerUpdate(fields, current.customerType, settings.supportedCurrencies);
        assertKnownTermsVersion(deps.terms, valid.profile.endUserTermsConsent);
        return valid;
      });
      const now = deps.clock().toISOString();
      const { identifier } = changes.profile;
      const next = applyCustomerChanges(
        current,
        changes,
        now,
        identifier !== undefined ? sealer.seal(identifier, id) : undefined,
      );
      const changedFields = [...Object.keys(changes.profile), ...(changes.currencies ? ['currencies'] : [])];
      const steps = [
        ...holdingAccountSteps(id, addedCurrencies(current.currencies, next.currencies), now),
        ...walletSteps(settings, next, current.email !== undefined, now),
      ];
      const write = async () => {
        const saved = await written(() =>
          store.customers.replace(next, [customerUpdated(newEvent, next, changedFields)], steps)
        );
        if (!saved) throw new AppError('CONFLICT', 'The customer was changed by another request; retry');
      };
      const completed = async (): Promise<Customer> => {
        await deps.provisioning.completeCustomer(next, steps);
        const { provisioning: _marker, ...updated } = next;
        return updated;
      };
      const tied = await deps.emailChange.tiedEmailChange(platformId, current, changes.profile.email, signature);
      if (tied) {
        // The signature binds the request in its REST shape.
        const request = { platformId, current, next, body: restShape(fields), signature };
        return deps.emailChange.signedUpdate({
          ...tied,
          ...request,
          write,
          completed,
          reread: () => get(platformId, id),
        });
      }
      await write();
      return { kind: 'UPDATED', customer: await completed() };
    },
  };
}
