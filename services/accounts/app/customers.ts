import { randomBytes } from 'node:crypto';
import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { addedCurrencies, applyCustomerChanges, newCustomer, type Customer } from '../domain/customer';
import { validateCustomerCreate, validateCustomerUpdate } from '../domain/customer-validation';
import { openInternalAccount } from '../domain/internal-account';
import { customerCreated, customerUpdated, internalAccountCreated } from './account-events';
import { DuplicateRecordError, type AccountsStore, type CustomerFilter, type Page } from './accounts-store';
import { readCustomerFilter, type CustomerQuery } from './list-filters';
import { pageQuery } from './page-cursor';
import type { Platforms } from './platforms';

export interface ListCustomersCommand extends CustomerQuery {
  limit: number;
  cursor?: string;
}

export interface Customers {
  create(platformId: string, body: unknown): Promise<Customer>;
  get(platformId: string, id: string): Promise<Customer>;
  list(platformId: string, command: ListCustomersCommand): Promise<Page<Customer>>;
  update(platformId: string, id: string, body: unknown): Promise<Customer>;
}

function duplicateError(err: DuplicateRecordError): AppError {
  if (err.key === 'platformCustomerId') return new AppError('CONFLICT', 'A customer with this platformCustomerId already exists', { field: 'platformCustomerId' });
  return new AppError('CONFLICT', 'This UMA address is already taken', { field: 'umaAddress' });
}

export function createCustomers(deps: { store: AccountsStore; platforms: Platforms; newEvent: NewEvent; clock: () => Date }): Customers {
  const { store, newEvent } = deps;

  /** Opens the customer's internal accounts for `currencies`; already-open ones are kept. */
  const openAccounts = async (customer: Customer, currencies: string[]) => {
    for (const currency of currencies) {
      const account = openInternalAccount({
        id: newId('InternalAccount'), platformId: customer.platformId, customerId: customer.id, currency, now: deps.clock().toISOString(),
      });
      await store.internalAccounts.insertIfAbsent(account, [internalAccountCreated(newEvent, account)]);
    }
  };

  const get = async (platformId: string, id: string) => {
    const customer = await store.customers.find(platformId, id);
    if (!customer) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
    return customer;
  };

  return {
    async create(platformId, body) {
      const settings = await deps.platforms.settingsOf(platformId);
      const draft = validateCustomerCreate(body, settings.supportedCurrencies);
      const id = newId('Customer');
      const customer = newCustomer(draft, {
        id,
        platformId,
        platformCustomerId: id.slice('Customer:'.length),
        umaAddress: `$${randomBytes(6).toString('hex')}@${settings.umaDomain}`,
      }, settings.supportedCurrencies, deps.clock().toISOString());
      try {
        await store.customers.insert(customer, [customerCreated(newEvent, customer)]);
      } catch (err) {
        if (err instanceof DuplicateRecordError) throw duplicateError(err);
        throw err;
      }
      await openAccounts(customer, customer.currencies);
      return customer;
    },

    get,

    async list(platformId, command) {
      const filter: CustomerFilter = readCustomerFilter(command);
      return store.customers.list(platformId, filter, pageQuery(command.limit, command.cursor));
    },

    async update(platformId, id, body) {
      const current = await get(platformId, id);
      const settings = await deps.platforms.settingsOf(platformId);
      const changes = validateCustomerUpdate(body, current.customerType, settings.supportedCurrencies);
      const next = applyCustomerChanges(current, changes, deps.clock().toISOString());
      const changedFields = [...Object.keys(changes.profile), ...(changes.currencies ? ['currencies'] : [])];
      let written: boolean;
      try {
        written = await store.customers.replace(next, [customerUpdated(newEvent, next, changedFields)]);
      } catch (err) {
        if (err instanceof DuplicateRecordError) throw duplicateError(err);
        throw err;
      }
      if (!written) throw new AppError('CONFLICT', 'The customer was changed by another request; retry');
      await openAccounts(next, addedCurrencies(current.currencies, next.currencies));
      return next;
    },
  };
}
