import { type Response } from 'express';
import { isAbsent, toAppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { cardPage, refusedPage, revealPagePolicy } from './card-reveal-page';
import { OperationHandlers } from './operation-routes';

function html(res: Response, status: number, frameAncestors: readonly string[], body: string): void {
  res.status(status)
    .set('Content-Security-Policy', revealPagePolicy(frameAncestors))
    // Browsers without frame-ancestors: deny framing outright unless origins are configured.
    .set(frameAncestors.length ? {} : { 'X-Frame-Options': 'DENY' })
    .set('Cache-Control', 'no-store')
    .set('Pragma', 'no-cache')
    .set('Referrer-Policy', 'no-referrer')
    .set('X-Content-Type-Options', 'nosniff')
    .set('Cross-Origin-Resource-Policy', 'same-origin')
    .type('text/html')
    .send(body);
}

/**
 * The embedded processor's card reveal page, served at the root without credentials: the signed,
 * single-use token in the path is the only credential. Opening it spends the token.
 */
export function cardRevealRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  routes.on('getCardRevealPage', async (req, res) => {
    // A HEAD (link previews, prefetchers) shows nothing, so it does not spend the single use either.
    if (req.method === 'HEAD') return html(res, 200, [], '');
    try {
      const card = await peers.cardReveals.openCardReveal({ token: req.params.token }, {
        correlationId: res.locals.correlationId as string | undefined,
      });
      html(res, 200, card.frameAncestors, cardPage(card));
    } catch (err) {
      if (!isAbsent(toAppError(err))) throw err;
      html(res, 404, [], refusedPage());
    }
  });
  return routes;
}
