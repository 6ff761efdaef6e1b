import { Router } from 'express';
import { cardJson } from '../../lib/contract/card-json';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext, callerOf } from '../http/call-context';
import { jsonBodyOf } from '../http/request-body';
import { RestBody } from './rest-body';
import { RestRequestReader, withoutAbsent } from './rest-request';

/** Cards: issuing, reading, listing, and the platform's changes (state, funding sources). */
export function cardRoutes(peers: PeerClients): Router {
  const router = Router();

  router.post('/cards', async (req, res) => {
    const body = RestBody.of(jsonBodyOf(req));
    const request = {
      cardholderId: body.string('cardholderId') ?? '', platformCardId: body.string('platformCardId'), form: body.string('form') ?? '',
      fundingSources: body.strings('fundingSources'), threeDSecurePassword: body.string('threeDSecurePassword'),
    };
    body.done('Invalid card');
    const { card } = await peers.cards.createCard(request, callContext(res));
    res.status(201).json(cardJson(card!));
  });

  router.get('/cards', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      cardholderId: q.query('cardholderId'), accountId: q.query('accountId'), platformCardId: q.query('platformCardId'),
      state: q.query('state'), sortOrder: q.query('sortOrder'), limit: q.limit(), cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.cards.listCards(request, callContext(res));
    res.status(200).json(withoutAbsent({ data: page.cards.map(cardJson), hasMore: page.hasMore, nextCursor: page.nextCursor, totalCount: page.totalCount }));
  });

  router.get('/cards/:id', async (req, res) => {
    const { card } = await peers.cards.getCard({ id: req.params.id }, callContext(res));
    res.status(200).json(cardJson(card!));
  });

  router.patch('/cards/:id', async (req, res) => {
    const body = RestBody.of(jsonBodyOf(req));
    const request = { id: req.params.id, state: body.string('state'), fundingSourcesGiven: body.has('fundingSources'), fundingSources: body.strings('fundingSources') };
    body.done('Invalid card update');
    const { card } = await peers.cards.updateCard(request, callContext(res));
    res.status(200).json(cardJson(card!));
  });

  // The actor audited with the reveal is the API token that asked (its client id, never its secret).
  router.post('/cards/:id/reveal', async (req, res) => {
    const tokenId = callerOf(res)?.tokenId;
    const reveal = await peers.cardReveals.revealCard({ cardId: req.params.id, actor: tokenId ? `apiToken.clientId:${tokenId}` : '' }, callContext(res));
    res.status(200).set('Cache-Control', 'no-store').json({ panEmbedUrl: reveal.panEmbedUrl, expiresAt: reveal.expiresAt });
  });

  return router;
}

const merchantOf = (body: RestBody) =>
  body.object('merchant', (m) => ({ descriptor: m.string('descriptor') ?? '', mcc: m.string('mcc'), country: m.string('country') }));

/** The sandbox card simulations: each answers 202 with the issuer transaction token; the outcome comes as webhooks. */
export function cardSandboxRoutes(peers: PeerClients): Router {
  const router = Router();
  const authorizationFamily = [
    ['authorization', 'simulateCardAuthorization'], ['credit_authorization', 'simulateCardCreditAuthorization'],
    ['financial_authorization', 'simulateCardFinancialAuthorization'], ['financial_credit_authorization', 'simulateCardFinancialCreditAuthorization'],
    ['credit_authorization_advice', 'simulateCardCreditAuthorizationAdvice'],
  ] as const;
  for (const [path, call] of authorizationFamily) {
    router.post(`/sandbox/cards/:id/simulate/${path}`, async (req, res) => {
      const body = RestBody.of(jsonBodyOf(req));
      const request = {
        cardId: req.params.id, amount: body.integer('amount') ?? 0,
        currencyCode: body.object('currency', (c) => c.string('code')) ?? '',
        merchant: merchantOf(body),
      };
      body.done('Invalid simulation');
      res.status(202).json(await peers.cardSandbox[call](request, callContext(res)));
    });
  }
  router.post('/sandbox/cards/:id/simulate/balance_inquiry', async (req, res) => {
    const body = RestBody.of(jsonBodyOf(req));
    const request = { cardId: req.params.id, merchant: merchantOf(body) };
    body.done('Invalid simulation');
    res.status(202).json(await peers.cardSandbox.simulateCardBalanceInquiry(request, callContext(res)));
  });
  const onTransaction = [['clearing', 'simulateCardClearing'], ['return', 'simulateCardReturn'], ['authorization_advice', 'simulateCardAuthorizationAdvice']] as const;
  for (const [path, call] of onTransaction) {
    router.post(`/sandbox/cards/:id/simulate/${path}`, async (req, res) => {
      const body = RestBody.of(jsonBodyOf(req));
      const request = { cardId: req.params.id, cardTransactionId: body.string('cardTransactionId') ?? '', amount: body.integer('amount') ?? 0 };
      body.done('Invalid simulation');
      res.status(202).json(await peers.cardSandbox[call](request, callContext(res)));
    });
  }
  router.post('/sandbox/cards/:id/simulate/return_reversal', async (req, res) => {
    const body = RestBody.of(jsonBodyOf(req));
    const request = { cardId: req.params.id, cardTransactionId: body.string('cardTransactionId') ?? '' };
    body.done('Invalid simulation');
    res.status(202).json(await peers.cardSandbox.simulateCardReturnReversal(request, callContext(res)));
  });
  return router;
}
