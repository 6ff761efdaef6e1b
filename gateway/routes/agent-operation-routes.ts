import { type Request, type Response } from 'express';
import { CreateAgentTransferRequest_Direction } from '../../gen/quotes_transactions/v1/agent_actions';
import type { CreateQuoteRequest, CreateTransferOutRequest } from '../../gen/quotes_transactions/v1/quotes';
import { agentActionJson } from '../../lib/contract/agent-action-json';
import { cardTransactionRecordJson } from '../../lib/contract/card-transaction-json';
import { quoteJson, transactionJson } from '../../lib/contract/payment-record-json';
import { AppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { agentContext, agentOf } from '../http/agent-auth';
import { callContext } from '../http/call-context';
import type { CreateExternalAccountRequest } from '../../gen/accounts/v1/external_account_requests';
import { bodyMessage, jsonBodyOf } from '../http/request-body';
import { externalAccountJson, internalAccountJson } from '../../lib/contract/account-json';
import { agentJson } from './agent-json';
import { header, paymentRequest } from './payments-quote-routes';
import { entryJson } from './payments-transaction-routes';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/**
 * What agent software calls with its Bearer token: everything is its customer's, within its policy.
 * Another customer's record answers exactly like a missing one.
 */
export function agentOperationRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('getAgentMe', async (_req, res) => {
    const agent = agentOf(res);
    const { usage } = await peers.agentActions.getAgentUsage({ agent: agentContext(res) }, callContext(res));
    res.status(200).json(agentJson(agent, usage!));
  });

  routes.on('agentListTransactions', async (req, res) => {
    const q = new RestRequestReader(req);
    const filters = {
      accountIdentifier: q.query('accountIdentifier'),
      senderAccountIdentifier: q.query('senderAccountIdentifier'),
      receiverAccountIdentifier: q.query('receiverAccountIdentifier'),
      status: q.query('status'),
      type: q.query('type'),
      reference: q.query('reference'),
      startDate: q.query('startDate'),
      endDate: q.query('endDate'),
      limit: q.limit(),
      cursor: q.query('cursor'),
      sortOrder: q.query('sortOrder'),
    };
    q.done();
    const page = await peers.agentActions.listAgentTransactions(
      { agent: agentContext(res), filters },
      callContext(res),
    );
    const data = page.entries.length ? page.entries.map(entryJson) : page.transactions.map(transactionJson);
    res.status(200).json(listJson(page, data, (item) => item));
  });

  routes.on('agentGetTransaction', async (req, res) => {
    const { transaction, cardTransaction } = await peers.agentActions.getAgentTransaction({
      agent: agentContext(res),
      transactionId: req.params.transactionId,
    }, callContext(res));
    res.status(200).json(cardTransaction ? cardTransactionRecordJson(cardTransaction) : transactionJson(transaction!));
  });

  routes.on('agentCreateQuote', async (req, res) => {
    const quote = paymentRequest<CreateQuoteRequest>(req, 'CreateQuoteRequest');
    const created = await peers.agentActions.createAgentQuote({ agent: agentContext(res), quote }, callContext(res));
    res.status(201).json(quoteJson(created.quote!));
  });

  routes.on('agentGetQuote', async (req, res) => {
    const { quote } = await peers.agentActions.getAgentQuote(
      { agent: agentContext(res), quoteId: req.params.quoteId },
      callContext(res),
    );
    res.status(200).json(quoteJson(quote!));
  });

  routes.on('agentExecuteQuote', async (req, res) => {
    const request = {
      agent: agentContext(res),
      quoteId: req.params.quoteId,
      idempotencyKey: header(req, 'Idempotency-Key'),
    };
    const { action } = await peers.agentActions.executeAgentQuote(request, callContext(res));
    res.status(200).json(agentActionJson(action!));
  });

  routes.on('agentListActions', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      agent: agentContext(res),
      status: q.query('status'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.agentActions.listAgentActions(request, callContext(res));
    res.status(200).json(listJson(page, page.actions, agentActionJson));
  });

  routes.on('agentGetAction', async (req, res) => {
    const { action } = await peers.agentActions.getAgentAction({
      agent: agentContext(res),
      actionId: req.params.actionId,
    }, callContext(res));
    res.status(200).json(agentActionJson(action!));
  });

  const transfer = (direction: CreateAgentTransferRequest_Direction) => async (req: Request, res: Response) => {
    const request = {
      agent: agentContext(res),
      direction,
      transfer: paymentRequest<CreateTransferOutRequest>(req, 'CreateTransferOutRequest'),
    };
    const { action } = await peers.agentActions.createAgentTransfer(request, callContext(res));
    res.status(201).json(agentActionJson(action!));
  };
  routes.on('agentCreateTransferIn', transfer(CreateAgentTransferRequest_Direction.IN));
  routes.on('agentCreateTransferOut', transfer(CreateAgentTransferRequest_Direction.OUT));

  routes.on('agentListInternalAccounts', async (req, res) => {
    const q = new RestRequestReader(req);
    const agent = agentOf(res);
    // The policy's allowedAccountIds limit what the agent sees as well as what it pays from.
    const allowed = agent.policy?.accountRestrictions?.allowedAccountIds;
    const request = {
      customerId: agent.customerId,
      currency: q.query('currency'),
      type: q.query('type'),
      limit: q.limit(),
      cursor: q.query('cursor'),
      ...(allowed ? { onlyAccountIds: { ids: allowed.ids } } : {}),
    };
    q.done();
    const page = await peers.accounts.listInternalAccounts(request, callContext(res));
    res.status(200).json(listJson(page, page.accounts, internalAccountJson));
  });

  routes.on('agentListExternalAccounts', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      customerId: agentOf(res).customerId,
      currency: q.query('currency'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.accounts.listExternalAccounts(request, callContext(res));
    res.status(200).json(listJson(page, page.accounts, externalAccountJson));
  });

  routes.on('agentCreateExternalAccount', async (req, res) => {
    const customerId = agentOf(res).customerId;
    const request = bodyMessage<CreateExternalAccountRequest>(req, 'accounts.v1.CreateExternalAccountRequest');
    if (request.customerId && request.customerId !== customerId) {
      throw new AppError('USER_NOT_FOUND', `Customer ${request.customerId} not found`);
    }
    const { account } = await peers.accounts.createExternalAccount({ ...request, customerId }, callContext(res));
    res.status(201).json(externalAccountJson(account!));
  });

  /** The customer's external account, or 404 exactly as for a missing one. */
  const ownExternalAccount = async (req: Request, res: Response) => {
    const q = new RestRequestReader(req);
    const id = q.pathId('externalAccountId', 'ExternalAccount');
    q.done();
    const { account } = await peers.accounts.getExternalAccount({ id }, callContext(res));
    if (account!.customerId !== agentOf(res).customerId) throw AppError.notFound('External account');
    return account!;
  };

  routes.on('agentGetExternalAccount', async (req, res) => {
    res.status(200).json(externalAccountJson(await ownExternalAccount(req, res)));
  });

  routes.on('agentDeleteExternalAccount', async (req, res) => {
    const account = await ownExternalAccount(req, res);
    await peers.accounts.deleteExternalAccount({ id: account.id, owner: 'CUSTOMER' }, callContext(res));
    res.status(204).end();
  });

  return routes;
}
