import { withEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type DocumentCollection } from '../../../lib/store/document-store';
import type { Invitation } from '../domain/invitation';
import type { InvitationStore } from '../app/invitations';

type InvitationDoc = Omit<Invitation, 'code'> & { _id: string };

const recordOf = ({ _id, ...rest }: InvitationDoc & { _outbox?: unknown }): Invitation => {
  const { _outbox: _, ...inv } = rest as typeof rest & { _outbox?: unknown };
  return { code: _id, ...inv } as Invitation;
};

/** Invitations by code (`_id`); their events ride in the documents' `_outbox`. */
export function createInvitationStore(invitations: DocumentCollection): InvitationStore {
  const docs = invitations as unknown as DocumentCollection<InvitationDoc>;
  return {
    async insert({ code, ...rest }) {
      try {
        await docs.insertOne({ _id: code, ...rest });
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    },
    async find(code) {
      const doc = await docs.findOne({ _id: code });
      return doc ? recordOf(doc) : null;
    },
    async changeIfPending(code, now, changes, events) {
      const doc = await docs.findOne({ _id: code });
      if (!doc) return null;
      const changed = { ...recordOf(doc), ...changes };
      const after = await docs.findOneAndUpdate(
        { _id: code, status: 'PENDING', $or: [{ expiresAt: { $exists: false } }, { expiresAt: { $gt: now } }] },
        withEvents({ $set: changes }, events(changed)),
        { returnDocument: 'after' },
      );
      return after ? recordOf(after) : null;
    },
  };
}
