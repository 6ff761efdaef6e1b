import { createPendingKeys } from './pending-keys';

const COUNTER = 'agent/Agent:1/2026-05';

test('a recorded key goes to one write at a time, never to the write of its own reservation', () => {
  const pending = createPendingKeys();
  pending.recorded(COUNTER, 'A:1');
  pending.recorded(COUNTER, 'A:2');
  expect(pending.removable(COUNTER, 'A:2')).toEqual({ ids: ['A:1'], unset: { [pending.field('A:1')]: '' } });
  // A concurrent write is not handed A:1 again while the first carries it.
  expect(pending.removable(COUNTER, 'A:3')).toEqual({ ids: ['A:2'], unset: { [pending.field('A:2')]: '' } });
  expect(pending.removable(COUNTER, 'A:4')).toEqual({ ids: [] });
  expect(pending.removable('agent/Agent:2/2026-05', 'A:5')).toEqual({ ids: [] });
});

test('the keys of a write that did not match go to a later write; those of one that matched are gone', () => {
  const pending = createPendingKeys();
  pending.recorded(COUNTER, 'A:1');
  pending.recorded(COUNTER, 'A:2');
  const refused = pending.removable(COUNTER, 'A:9');
  pending.removed(COUNTER, refused.ids, false);
  const next = pending.removable(COUNTER, 'A:9');
  expect(next.ids.sort()).toEqual(['A:1', 'A:2']);
  pending.removed(COUNTER, next.ids, true);
  expect(pending.removable(COUNTER, 'A:9')).toEqual({ ids: [] });
});
