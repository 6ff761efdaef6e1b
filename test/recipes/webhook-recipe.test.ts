import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webhookKindOf } from '../../gateway/contract/webhook-kinds';
import { EXTENSION_WEBHOOK_TYPES, REFERENCE_WEBHOOK_TYPES } from '../../lib/contract/webhook-types';
import { createWebhookPayloads } from '../../services/notifications/app/webhook-payloads';
import { documentedKinds, emittedBy, webhookProblems, type WebhookWiring } from './webhook-recipe';

const ROOT = join(__dirname, '..', '..');
/** The files that list every type: naming a type there is not emitting it. */
const LISTS = ['lib/contract/webhook-types.ts', 'gateway/contract/webhook-kinds.ts'];
/** Types no service emits, each with its reason. */
const NOT_EMITTED = {
  'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED': "no use case changes an internal account's funding instructions",
};

describe('the "add a webhook type" recipe', () => {
  const payloads = createWebhookPayloads({ resources: {} as never, subscriptions: {} as never });
  const real: WebhookWiring = {
    types: [...REFERENCE_WEBHOOK_TYPES, ...EXTENSION_WEBHOOK_TYPES],
    kindOf: (type) => webhookKindOf(type)?.name,
    recorded: payloads.isWebhookType,
    emitted: emittedBy(ROOT, ['services', 'lib', 'gateway'], LISTS),
    documented: documentedKinds(readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8')),
    notEmitted: NOT_EMITTED,
  };

  it('holds for every type: a kind of the contract, recorded, emitted, documented under its kind', () => {
    expect(webhookProblems(real)).toEqual([]);
  });

  it('names each missing step of a type added to the list alone', () => {
    // In lib/contract/webhook-types.ts, the notifications service records it: nothing else is done.
    const listed = { ...real, types: ['CARD.FROZEN'], recorded: () => true };
    expect(webhookProblems(listed)).toEqual([
      'CARD.FROZEN: in no webhook kind of the contract (gateway/contract/webhook-kinds.ts)',
      'CARD.FROZEN: emitted by no service',
      "CARD.FROZEN: not in docs/webhooks.md's tables",
    ]);
    expect(webhookProblems({ ...real, types: ['CARD.FROZEN'] })).toContain(
      'CARD.FROZEN: not recorded by the notifications service',
    );
  });

  it('names a type documented under another kind, and one listed as not emitted that is', () => {
    const documented = new Map(real.documented).set('QUOTE.CREATED', 'outgoing-payment');
    const notEmitted = { 'QUOTE.CREATED': 'listed by mistake' };
    expect(webhookProblems({ ...real, types: ['QUOTE.CREATED'], documented, notEmitted })).toEqual([
      'QUOTE.CREATED: listed as not emitted, but a service emits it',
      'QUOTE.CREATED: docs/webhooks.md lists it under outgoing-payment, the contract under quote',
    ]);
  });

  it('reads the types of a kind row, `.SUFFIX` continuing the type before it', () => {
    const table = '| Kind | Types | data |\n|---|---|---|\n| `card-x` | `CARD_X.A`, `.B`, `OTHER.C`, `.D` | Card |';
    expect([...documentedKinds(table)]).toEqual([
      ['CARD_X.A', 'card-x'],
      ['CARD_X.B', 'card-x'],
      ['OTHER.C', 'card-x'],
      ['OTHER.D', 'card-x'],
    ]);
  });

  it('sees a type emitted as a literal or a template, and not one only the lists name', () => {
    expect(['CARD.STATE_CHANGE', 'CARD_TRANSACTION.SETTLED', 'INCOMING_PAYMENT.REFUND_FAILED'].map(real.emitted))
      .toEqual([true, true, true]);
    expect(['INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED', 'CARD.FROZEN'].map(real.emitted)).toEqual([false, false]);
  });
});
