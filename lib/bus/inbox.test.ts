import { createEmbeddedDocumentStore } from '../store/embedded-document-store';
import type { DomainEvent } from './event-bus';
import { event } from './event-bus.contract';
import { createIdempotentHandler } from './inbox';

describe('createIdempotentHandler', () => {
  it('applies each event once per group, recording it only after the handler succeeded', async () => {
    const inbox = createEmbeddedDocumentStore().collection('inbox');
    const applied: DomainEvent[] = [];
    let fail = true;
    const handler = createIdempotentHandler({
      collection: inbox,
      group: 'ledger',
      handler: async (e) => {
        if (fail) throw new Error('down');
        applied.push(e);
      },
    });
    const e = event('Customer:1', 1);

    await expect(handler(e)).rejects.toThrow('down');
    expect(await inbox.countDocuments({})).toBe(0);
    fail = false;
    await handler(e);
    await handler(e);
    expect(applied).toEqual([e]);
    expect(await inbox.findOne({ _id: `ledger:${e.id}` })).toMatchObject({ group: 'ledger', eventId: e.id });

    const otherGroup = createIdempotentHandler({
      collection: inbox,
      group: 'mailer',
      handler: async (ev) => void applied.push(ev),
    });
    await otherGroup(e);
    expect(applied).toEqual([e, e]);
  });

  it('tolerates a concurrent redelivery recording the event first', async () => {
    const inbox = createEmbeddedDocumentStore().collection('inbox');
    let calls = 0;
    const handler = createIdempotentHandler({ collection: inbox, group: 'g', handler: async () => void calls++ });
    const e = event('Customer:1', 1);
    await Promise.all([handler(e), handler(e)]);
    expect(calls).toBe(2); // both passed the check before either recorded: why handlers must be idempotent
    expect(await inbox.countDocuments({})).toBe(1);
  });
});
