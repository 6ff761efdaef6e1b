import { CardRevealServiceService } from '../../../../gen/quotes_transactions/v1/card_reveals';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { CardReveals } from '../app/card-reveals';
import { callerOf } from '../../shared/grpc/payment-caller';

export function bindCardRevealService(reveals: CardReveals) {
  return bindService(CardRevealServiceService, {
    async revealCard(request, ctx) {
      return reveals.reveal(callerOf(ctx), request.cardId, request.actor);
    },
    async openCardReveal(request) {
      return reveals.open(request.token);
    },
  });
}
