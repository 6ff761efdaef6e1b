import { createWithinQuota } from './quota';

test(
  'concurrent creations never exceed the limit; an expiring '
    + 'resource answers 429 with a retry time, a lasting one 409',
  async () => {
    const held = new Set<number>();
    let next = 0;
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const create = () =>
      createWithinQuota({ what: 'things per owner', limit: 5 }, {
        count: async () => {
          await tick();
          return held.size;
        },
        create: async () => {
          await tick();
          const id = next++;
          held.add(id);
          return id;
        },
        undo: async (id) => {
          held.delete(id);
        },
      });
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, create));
    expect(held.size).toBeLessThanOrEqual(5);
    expect(held.size).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(held.size);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'CONFLICT', details: { quota: 'things per owner', limit: 5 } });
    await expect(
      createWithinQuota({ what: 'codes', limit: 0, retryAfterSeconds: 30 }, {
        count: async () => 0,
        create: async () => 1,
        undo: async () => {},
      }),
    )
      .rejects.toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 30 } });
  },
);
