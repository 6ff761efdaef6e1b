import { cardJson } from '../../lib/contract/card-json';
import { contractJson } from '../../lib/contract/contract-json';
import { CardRevealResponse } from '../contract/card-contract';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext, callerOf } from '../http/call-context';
import type { CreateCardRequest, UpdateCardRequest } from '../../gen/quotes_transactions/v1/cards';
import { bodyMessage, jsonBodyOf } from '../http/request-body';
import { RestBody } from './rest-body';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** Cards: issuing, reading, listing, and the platform's changes (state, funding sources). */
export function cardRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('createCard', async (req, res) => {
    const request = bodyMessage<CreateCardRequest>(req, 'quotes_transactions.v1.CreateCardRequest');
    const { card } = await peers.cards.createCard(request, callContext(res));
    res.status(201).json(cardJson(card!));
  });

  routes.on('listCards', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      cardholderId: q.query('cardholderId'),
      accountId: q.query('accountId'),
      platformCardId: q.query('platformCardId'),
      state: q.query('state'),
      sortOrder: q.query('sortOrder'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.cards.listCards(request, callContext(res));
    res.status(200).json(listJson(page, page.cards, cardJson));
  });

  routes.on('getCardById', async (req, res) => {
    const { card } = await peers.cards.getCard({ id: req.params.id }, callContext(res));
    res.status(200).json(cardJson(card!));
  });

  routes.on('updateCardById', async (req, res) => {
    const request = {
      ...bodyMessage<UpdateCardRequest>(req, 'quotes_transactions.v1.UpdateCardRequest'),
      id: req.params.id,
      // No REST member: whether the body names fundingSources at all (an empty list clears them).
      fundingSourcesGiven: (jsonBodyOf(req) as Record<string, unknown>).fundingSources !== undefined,
    };
    const { card } = await peers.cards.updateCard(request, callContext(res));
    res.status(200).json(cardJson(card!));
  });

  // The actor audited with the reveal is the API token that asked (its client id, never its secret).
  routes.on('revealCard', async (req, res) => {
    const tokenId = callerOf(res)?.tokenId;
    const reveal = await peers.cardReveals.revealCard({
      cardId: req.params.id,
      actor: tokenId ? `apiToken.clientId:${tokenId}` : '',
    }, callContext(res));
    res.status(200).set('Cache-Control', 'no-store').json(contractJson(CardRevealResponse, reveal));
  });

  return routes;
}

const merchantOf = (body: RestBody) =>
  body.object(
    'merchant',
    (m) => ({ descriptor: m.string('descriptor') ?? '', mcc: m.string('mcc'), country: m.string('country') }),
  );

/** The sandbox card simulations: each answers 202 with the issuer transaction token; the outcome comes as webhooks. */
export function cardSandboxRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  const authorizationFamily = [
    ['sandboxSimulateCardAuthorization', 'simulateCardAuthorization'],
    ['sandboxSimulateCardCreditAuthorization', 'simulateCardCreditAuthorization'],
    ['sandboxSimulateCardFinancialAuthorization', 'simulateCardFinancialAuthorization'],
    ['sandboxSimulateCardFinancialCreditAuthorization', 'simulateCardFinancialCreditAuthorization'],
    ['sandboxSimulateCardCreditAuthorizationAdvice', 'simulateCardCreditAuthorizationAdvice'],
  ] as const;
  for (const [operationId, call] of authorizationFamily) {
    routes.on(operationId, async (req, res) => {
      const body = RestBody.of(jsonBodyOf(req));
      const request = {
        cardId: req.params.id,
        amount: body.integer('amount') ?? 0,
        currencyCode: body.object('currency', (c) => c.string('code')) ?? '',
        merchant: merchantOf(body),
      };
      body.done('Invalid simulation');
      res.status(202).json(await peers.cardSandbox[call](request, callContext(res)));
    });
  }
  routes.on('sandboxSimulateCardBalanceInquiry', async (req, res) => {
    const body = RestBody.of(jsonBodyOf(req));
    const request = { cardId: req.params.id, merchant: merchantOf(body) };
    body.done('Invalid simulation');
    res.status(202).json(await peers.cardSandbox.simulateCardBalanceInquiry(request, callContext(res)));
  });
  const onTransaction = [
    ['sandboxSimulateCardClearing', 'simulateCardClearing'],
    ['sandboxSimulateCardReturn', 'simulateCardReturn'],
    ['sandboxSimulateCardAuthorizationAdvice', 'simulateCardAuthorizationAdvice'],
  ] as const;
  for (const [operationId, call] of onTransaction) {
    routes.on(operationId, async (req, res) => {
      const body = RestBody.of(jsonBodyOf(req));
      const request = {
        cardId: req.params.id,
        cardTransactionId: body.string('cardTransactionId') ?? '',
        amount: body.integer('amount') ?? 0,
      };
      body.done('Invalid simulation');
      res.status(202).json(await peers.cardSandbox[call](request, callContext(res)));
    });
  }
  routes.on('sandboxSimulateCardReturnReversal', async (req, res) => {
    const body = RestBody.of(jsonBodyOf(req));
    const request = { cardId: req.params.id, cardTransactionId: body.string('cardTransactionId') ?? '' };
    body.done('Invalid simulation');
    res.status(202).json(await peers.cardSandbox.simulateCardReturnReversal(request, callContext(res)));
  });
  return routes;
}
