import { CardServiceService } from '../../../../gen/quotes_transactions/v1/cards';
import { nextPageCursor } from '../../../../lib/page-cursor';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { CardUseCases } from '../app/card-use-cases';
import { toCardRecord } from '../domain/card-records';
import { callerOf, present } from '../../shared/grpc/payment-caller';

export function bindCardService(useCases: { cards: CardUseCases }) {
  const { cards } = useCases;
  return bindService(CardServiceService, {
    async createCard(request, ctx) {
      const card = await cards.issue(callerOf(ctx), {
        cardholderId: request.cardholderId,
        platformCardId: present(request.platformCardId),
        form: request.form,
        fundingSources: request.fundingSources,
        threeDSecurePasswordGiven: request.threeDSecurePassword !== undefined,
      });
      return { card: toCardRecord(card) };
    },
    async getCard(request, ctx) {
      return { card: toCardRecord(await cards.get(callerOf(ctx), request.id)) };
    },
    async updateCard(request, ctx) {
      const card = await cards.update(callerOf(ctx), request.id, {
        state: present(request.state),
        ...(request.fundingSourcesGiven ? { fundingSources: request.fundingSources } : {}),
      });
      return { card: toCardRecord(card) };
    },
    async listCards(request, ctx) {
      const page = await cards.list(callerOf(ctx), {
        cardholderId: present(request.cardholderId),
        accountId: present(request.accountId),
        platformCardId: present(request.platformCardId),
        state: present(request.state),
        limit: request.limit,
        cursor: present(request.cursor),
        sortOrder: present(request.sortOrder),
      });
      return {
        cards: page.cards.map(toCardRecord),
        hasMore: page.hasMore,
        nextCursor: nextPageCursor(page.cards, page.hasMore),
        totalCount: page.totalCount,
      };
    },
  });
}
