import type { Customer } from '../../gen/accounts/v1/accounts';
import type { BeneficialOwner } from '../../gen/accounts/v1/beneficial_owners';
import { ownerJson } from './beneficial-owner-json';
import { contractJson } from './contract-json';
import { businessCustomerMembers, IndividualCustomer } from './customer-records';
import { ClosedObject } from './schema-kit';

const BusinessCustomer = ClosedObject(businessCustomerMembers);

/** The REST IndividualCustomer or BusinessCustomer; a business embeds its beneficial `owners` when given. */
export function customerJson(c: Customer, owners?: BeneficialOwner[]) {
  if (c.customerType !== 'BUSINESS') return contractJson(IndividualCustomer, c);
  const json = contractJson(BusinessCustomer, c);
  return owners ? { ...json, beneficialOwners: owners.map(ownerJson) } : json;
}
