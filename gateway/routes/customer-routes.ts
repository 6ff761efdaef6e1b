import { type Response } from 'express';
import type { Customer } from '../../gen/accounts/v1/accounts';
import type { CustomerFields } from '../../gen/accounts/v1/customer_requests';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { bodyMessage } from '../http/request-body';
import { walletSignature } from '../http/wallet-signature';
import { contractJson } from '../../lib/contract/contract-json';
import { customerJson } from '../../lib/contract/customer-json';
import { EndUserTerms } from '../contract/customer-contract';
import { businessOwners } from './customer-owners';
import { listJson, RestRequestReader } from './rest-request';
import { challengeJson } from './wallet-auth-json';
import { OperationHandlers } from './operation-routes';

/** Sub-resources under /customers that other route modules own; never a customer id. */
/** Fixed path segments under /customers: never read as a customer id (a route not served yet is a route miss, 404). */
const CUSTOMER_SUBRESOURCES = new Set(['internal-accounts', 'external-accounts', 'end-user-terms', 'bulk', 'kyc-link']);

/** Customers: create, list, get, update. Unknown or other-platform customers are 404 USER_NOT_FOUND. */
export function customerRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  const withOwners = async (res: Response, customer: Customer) =>
    customerJson(customer, (await businessOwners(peers, callContext(res), [customer])).get(customer.id));

  routes.on('createCustomer', async (req, res) => {
    const { customer } = await peers.accounts.createCustomer({
      customer: bodyMessage<CustomerFields>(req, 'accounts.v1.CustomerFields'),
    }, callContext(res));
    res.status(201).json(await withOwners(res, customer!));
  });

  routes.on('getEndUserTerms', async (_req, res) => {
    res.status(200).json(contractJson(EndUserTerms, await peers.accounts.getEndUserTerms({}, callContext(res))));
  });

  routes.on('listCustomers', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      platformCustomerId: q.query('platformCustomerId'),
      customerType: q.query('customerType'),
      createdAfter: q.query('createdAfter'),
      createdBefore: q.query('createdBefore'),
      updatedAfter: q.query('updatedAfter'),
      updatedBefore: q.query('updatedBefore'),
      region: q.query('region'),
      currency: q.query('currency'),
      umaAddress: q.query('umaAddress'),
      includeDeleted: q.boolean('isIncludingDeleted'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.accounts.listCustomers(request, callContext(res));
    const owners = await businessOwners(peers, callContext(res), page.customers);
    res.status(200).json(listJson(page, page.customers, (c) => customerJson(c, owners.get(c.id))));
  });

  routes.on('getCustomer', async (req, res, next) => {
    if (CUSTOMER_SUBRESOURCES.has(req.params.customerId)) return next();
    const q = new RestRequestReader(req);
    const id = q.pathId('customerId', 'Customer');
    q.done();
    const { customer } = await peers.accounts.getCustomer({ id }, callContext(res));
    res.status(200).json(await withOwners(res, customer!));
  });

  // Changing an email tied to embedded-wallet EMAIL_OTP credentials is a signed retry: 202 first.
  routes.on('updateCustomer', async (req, res, next) => {
    if (CUSTOMER_SUBRESOURCES.has(req.params.customerId)) return next();
    const q = new RestRequestReader(req);
    const id = q.pathId('customerId', 'Customer');
    q.done();
    const request = {
      id,
      changes: bodyMessage<CustomerFields>(req, 'accounts.v1.CustomerFields'),
      signature: walletSignature(req),
    };
    const { customer, challenge, processing } = await peers.accounts.updateCustomer(request, callContext(res));
    if (challenge) res.status(202).json(challengeJson(challenge));
    else if (processing) res.status(200).json({ status: 'PROCESSING', message: processing.message });
    else res.status(200).json(await withOwners(res, customer!));
  });

  // A customer holding funds is refused (409); a deleted one stays readable with isDeleted.
  routes.on('deleteCustomer', async (req, res, next) => {
    if (CUSTOMER_SUBRESOURCES.has(req.params.customerId)) return next();
    const q = new RestRequestReader(req);
    const id = q.pathId('customerId', 'Customer');
    q.done();
    const { customer } = await peers.accounts.deleteCustomer({ id }, callContext(res));
    res.status(200).json(await withOwners(res, customer!));
  });

  return routes;
}
