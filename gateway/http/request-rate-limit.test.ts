import type { Request, Response } from 'express';
import { requestRateLimit } from './request-rate-limit';

const responseOf = (
  platformId: string,
  tokenId: string,
) => ({ locals: { caller: { platformId, tokenId } }, set: () => undefined } as unknown as Response);

async function call(limit: ReturnType<typeof requestRateLimit>, res: Response): Promise<unknown> {
  return new Promise((resolve) => {
    void limit({} as Request, res, (err?: unknown) => resolve(err));
  });
}

test("a platform's tokens share its rate: more tokens do not multiply it; other platforms are not slowed", async () => {
  const limit = requestRateLimit({ requests: 5, windowSeconds: 60, platformRequests: 8 });
  const outcomes = [];
  for (let token = 0; token < 4; token += 1) {
    for (let i = 0; i < 5; i += 1) outcomes.push(await call(limit, responseOf('P1', `token-${token}`)));
  }
  const served = outcomes.filter((o) => o === undefined).length;
  expect(served).toBe(8);
  expect(outcomes.find((o) => o !== undefined)).toMatchObject({
    code: 'RATE_LIMITED',
    details: { limit: 'platform', retryAfterSeconds: expect.any(Number) },
  });
  expect(await call(limit, responseOf('P2', 'token-0'))).toBeUndefined();
});
