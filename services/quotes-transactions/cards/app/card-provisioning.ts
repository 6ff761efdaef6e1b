import type { Logger } from '../../../../lib/log';
import { provisioningChange, type Card } from '../domain/card';
import type { CardIssuer, CardStore } from './card-ports';
import type { CardUseCases } from './card-use-cases';

/**
 * Asks the issuer to provision a PROCESSING card and records its answer (ACTIVE, or CLOSED with
 * ISSUER_REJECTED) with CARD.STATE_CHANGE. Runs right after issuing; cards left PROCESSING by an
 * interrupted run are picked up by `finishInterrupted`. The issuer answers the same for the same
 * card, so running twice is harmless (the second finds the card no longer PROCESSING).
 */
export function createCardProvisioning(
  deps: { store: CardStore; issuer: CardIssuer; cards: () => CardUseCases; clock: () => Date; logger: Logger },
) {
  async function provision(card: Card): Promise<void> {
    const provisioning = await deps.issuer.provision(card);
    await deps.cards().change({ platformId: card.platformId }, card.id, async (current) => {
      const change = provisioningChange(current, provisioning);
      return { change, types: ['CARD.STATE_CHANGE'] };
    }).catch((err: unknown) => {
      // Another run finished it first.
      if ((err as { code?: string }).code !== 'INVALID_STATE_TRANSITION') throw err;
    });
  }

  function provisionLater(card: Card): void {
    provision(card).catch((err: unknown) =>
      deps.logger.warn('card provisioning failed; retried later', { cardId: card.id, err })
    );
  }

  async function finishInterrupted(olderThanMs: number): Promise<number> {
    const before = new Date(deps.clock().getTime() - olderThanMs).toISOString();
    const cards = await deps.store.processingSince(before, 50);
    for (const card of cards) await provision(card);
    return cards.length;
  }

  return { provision, provisionLater, finishInterrupted };
}
