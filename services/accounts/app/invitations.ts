import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError } from '../../../lib/errors';
import {
  checkNewInvitation,
  checkUmaAddress,
  invitationView,
  newInvitationCode,
  notPending,
  statusAt,
  type Invitation,
  type InvitationView,
  type NewInvitationInput,
} from '../domain/invitation';
import type { CustomerStore } from './accounts-store';

/** Storage port of the invitations. */
export interface InvitationStore {
  /** False when the code is taken. */
  insert(invitation: Invitation): Promise<boolean>;
  find(code: string): Promise<Invitation | null>;
  /**
   * Applies `changes` only while the invitation is PENDING and not expired at `now`, with the
   * event in the same write; answers the changed invitation, or null when it was not claimable.
   */
  changeIfPending(
    code: string,
    now: string,
    changes: Partial<Invitation>,
    events: (claimed: Invitation) => DomainEvent[],
  ): Promise<Invitation | null>;
}

export const INVITATION_CLAIMED = 'INVITATION.CLAIMED';

export function createInvitations(deps: {
  store: InvitationStore;
  customers: Pick<CustomerStore, 'list'>;
  webhookEndpoint: (platformId: string) => Promise<string | undefined>;
  newEvent: NewEvent;
  clock: () => Date;
  urlBase: string;
}) {
  const notFound = () => AppError.notFound('Invitation', 'INVITATION_NOT_FOUND');
  const existing = async (code: string) => {
    const inv = code ? await deps.store.find(code) : null;
    if (!inv) throw notFound();
    return inv;
  };

  /** The conditional PENDING → next change; when refused, says why from the invitation's state. */
  async function fromPending(
    inv: Invitation,
    changes: Partial<Invitation>,
    events: (i: Invitation) => DomainEvent[] = () => [],
  ): Promise<InvitationView> {
    const now = deps.clock();
    const status = statusAt(inv, now);
    if (status !== 'PENDING') throw notPending(status);
    const changed = await deps.store.changeIfPending(inv.code, now.toISOString(), {
      ...changes,
      updatedAt: now.toISOString(),
    }, events);
    if (!changed) throw notPending(statusAt((await deps.store.find(inv.code)) ?? inv, deps.clock()));
    return invitationView(changed, now);
  }

  return {
    async create(platformId: string, input: NewInvitationInput): Promise<InvitationView> {
      const now = deps.clock();
      const members = checkNewInvitation(input, now);
      const inviterUma = checkUmaAddress(input.inviterUma, 'inviterUma');
      const page = await deps.customers.list(platformId, { umaAddress: inviterUma, includeDeleted: false }, {
        limit: 1,
      });
      const inviter = page.items[0];
      if (!inviter) {
        throw new AppError('INVALID_UMA_ADDRESS', 'No customer of this platform has this UMA address', {
          field: 'inviterUma',
        });
      }
      if (!(await deps.webhookEndpoint(platformId))) {
        throw new AppError(
          'INVITATIONS_NOT_CONFIGURED',
          'Invitations need a webhook endpoint (PATCH /config webhookEndpoint): '
            + 'claims are reported by the INVITATION.CLAIMED webhook',
        );
      }
      const { amountToSend, ...rest } = members;
      for (let attempt = 0;; attempt++) {
        const code = newInvitationCode();
        const invitation: Invitation = {
          code,
          platformId,
          inviterUma,
          inviterCustomerId: inviter.id,
          status: 'PENDING',
          url: `${deps.urlBase}/${code}`,
          ...rest,
          ...(amountToSend ? { amountToSend: { amount: amountToSend, currency: inviter.currencies[0] ?? 'USD' } } : {}),
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        };
        if (await deps.store.insert(invitation)) return invitationView(invitation, now);
        if (attempt >= 3) throw new Error('could not find a free invitation code');
      }
    },

    /** Any platform may read an invitation by its code: the invitee's platform is rarely the inviter's. */
    async get(code: string): Promise<InvitationView> {
      return invitationView(await existing(code), deps.clock());
    },

    /** Exactly once: concurrent claims race on one conditional write; the losers are told it was claimed. */
    async claim(code: string, inviteeUmaInput: string | undefined): Promise<InvitationView> {
      const inv = await existing(code);
      const inviteeUma = checkUmaAddress(inviteeUmaInput, 'inviteeUma');
      if (inviteeUma.toLowerCase() === inv.inviterUma.toLowerCase()) {
        throw new AppError('INVALID_UMA_ADDRESS', 'The inviter cannot claim its own invitation', {
          field: 'inviteeUma',
        });
      }
      const claimedAt = deps.clock().toISOString();
      return fromPending(inv, { status: 'CLAIMED', inviteeUma, claimedAt }, (claimed) => [
        deps.newEvent({
          type: INVITATION_CLAIMED,
          version: 1,
          platformId: claimed.platformId,
          aggregateId: claimed.code,
          data: { ...invitationView(claimed, new Date(claimedAt)) },
        }),
      ]);
    },

    /** Only the platform that created the invitation may cancel it, and only while it is PENDING. */
    async cancel(platformId: string, code: string): Promise<InvitationView> {
      const inv = await existing(code);
      if (inv.platformId !== platformId) {
        throw new AppError('FORBIDDEN', 'Only the platform that created this invitation can cancel it');
      }
      return fromPending(inv, { status: 'CANCELLED', cancelledAt: deps.clock().toISOString() });
    },
  };
}

export type Invitations = ReturnType<typeof createInvitations>;
