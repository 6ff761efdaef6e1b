import { randomBytes } from 'node:crypto';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { createAesGcmSealer } from '../../../../lib/sealing/aes-gcm-sealer';
import type { Logger } from '../../../../lib/log';
import { createSandboxCardIssuer } from '../adapters/sandbox-card-issuer';
import { createCardRevealDocumentStore } from '../store/card-reveal-document-store';
import type { Card } from '../domain/card';
import { AppError } from '../../../../lib/errors';
import { createCardReveals } from './card-reveals';
import { revealSigningKey, signRevealToken } from './reveal-token';

const dataKey = randomBytes(32);
let now = new Date('2026-06-01T12:00:00Z');
const clock = () => now;
const store = createEmbeddedDocumentStore();
const issuer = createSandboxCardIssuer({ store, sealer: createAesGcmSealer(dataKey), clock });
const cards = new Map<string, Card>();
const card = (id: string, state: Card['state']): Card => {
  const c = {
    id,
    platformId: 'P',
    cardholderId: 'Customer:1',
    platformCardId: id,
    state,
    stateReason: null,
    form: 'VIRTUAL',
    fundingSources: [],
    currency: 'USD',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  } as Card;
  cards.set(id, c);
  return c;
};
const lines: string[] = [];
const logger = {
  info: (m: string, f?: object) => lines.push(`${m} ${JSON.stringify(f)}`),
  warn: (m: string, f?: object) => lines.push(`${m} ${JSON.stringify(f)}`),
} as unknown as Logger;
const reveals = createCardReveals({
  card: async (caller, id) => {
    const c = cards.get(id);
    if (!c || c.platformId !== caller.platformId) throw AppError.notFound(`Card ${id}`);
    return c;
  },
  cardData: issuer,
  store: createCardRevealDocumentStore(store),
  key: revealSigningKey(dataKey),
  clock,
  logger,
  settings: { ttlMs: 90_000, pageBaseUrl: 'https://gw.example/', frameAncestors: [] },
});
const caller = { platformId: 'P' };
const tokenOf = (url: string) => url.slice('https://gw.example/card-reveal/'.length);

beforeAll(async () => {
  for (const id of ['Card:a', 'Card:b', 'Card:frozen']) await issuer.provision(card(id, 'ACTIVE'));
  cards.get('Card:frozen')!.state = 'FROZEN';
});

test("a reveal opens once and shows the issuer's sealed data; the actor is audit-logged without it", async () => {
  const { panEmbedUrl, expiresAt } = await reveals.reveal(caller, 'Card:a', 'ApiToken:t1');
  expect(panEmbedUrl).toMatch(/^https:\/\/gw\.example\/card-reveal\/[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(Date.parse(expiresAt) - now.getTime()).toBeLessThanOrEqual(90_000);
  const shown = await reveals.open(tokenOf(panEmbedUrl));
  expect(shown).toMatchObject((await issuer.cardData('Card:a'))!);
  await expect(reveals.open(tokenOf(panEmbedUrl))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(lines.some((l) => l.startsWith('card reveal minted') && l.includes('ApiToken:t1') && l.includes('Card:a')))
    .toBe(true);
  expect(lines.some((l) => l.startsWith('card reveal opened') && l.includes('ApiToken:t1'))).toBe(true);
  expect(lines.join('\n')).not.toContain(shown.pan);
  expect(lines.join('\n')).not.toContain(tokenOf(panEmbedUrl));
});

test('of concurrent opens of one URL exactly one shows the card', async () => {
  const { panEmbedUrl } = await reveals.reveal(caller, 'Card:b', 'ApiToken:t1');
  const opened = await Promise.allSettled(Array.from({ length: 10 }, () => reveals.open(tokenOf(panEmbedUrl))));
  expect(opened.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
});

test('an expired, tampered or foreign-key token is refused', async () => {
  const { panEmbedUrl } = await reveals.reveal(caller, 'Card:a', 'ApiToken:t1');
  const token = tokenOf(panEmbedUrl);
  const [header, payload, signature] = token.split('.');
  const flipped = signature[0] === 'A' ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
  await expect(reveals.open(`${header}.${payload}.${flipped}`)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  const sub = JSON.parse(Buffer.from(payload, 'base64url').toString()).sub as string;
  const foreign = await signRevealToken(revealSigningKey(randomBytes(32)), sub, new Date(now.getTime() + 60_000));
  await expect(reveals.open(foreign)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  await expect(reveals.open('not-a-token')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  const later = now;
  now = new Date(now.getTime() + 91_000);
  await expect(reveals.open(token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  // A token re-signed with the right key but a later expiry still meets the stored expiry.
  const extended = await signRevealToken(revealSigningKey(dataKey), sub, new Date(now.getTime() + 60_000));
  await expect(reveals.open(extended)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  now = later;
});

test("who may reveal: a FROZEN card yes; CLOSED, PROCESSING, another platform's card or no actor: no", async () => {
  await expect(reveals.reveal(caller, 'Card:frozen', 'ApiToken:t1')).resolves.toHaveProperty('panEmbedUrl');
  card('Card:closed', 'CLOSED');
  card('Card:new', 'PROCESSING');
  await expect(reveals.reveal(caller, 'Card:closed', 'ApiToken:t1')).rejects.toMatchObject({
    code: 'CARD_ALREADY_CLOSED',
  });
  await expect(reveals.reveal(caller, 'Card:new', 'ApiToken:t1')).rejects.toMatchObject({ code: 'CONFLICT' });
  await expect(reveals.reveal({ platformId: 'Q' }, 'Card:a', 'ApiToken:t1')).rejects.toMatchObject({
    code: 'REFERENCE_NOT_FOUND',
  });
  await expect(reveals.reveal(caller, 'Card:a', '')).rejects.toMatchObject({ code: 'FORBIDDEN' });
});

test('a card closed after the reveal is not shown', async () => {
  const c = card('Card:later-closed', 'ACTIVE');
  await issuer.provision(c);
  const { panEmbedUrl } = await reveals.reveal(caller, c.id, 'ApiToken:t1');
  c.state = 'CLOSED';
  await expect(reveals.open(tokenOf(panEmbedUrl))).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

test('SCA rail: an SCA cardholder without a live session is refused, with one it is served', async () => {
  const allows = new Map([['Customer:eu', false]]);
  const railed = createCardReveals({
    card: async () => ({ ...cards.get('Card:a')!, cardholderId: 'Customer:eu' }),
    cardData: issuer,
    store: createCardRevealDocumentStore(store),
    key: revealSigningKey(dataKey),
    clock,
    logger,
    scaAllows: async (_caller, customerId) => allows.get(customerId) ?? true,
    settings: { ttlMs: 90_000, pageBaseUrl: 'https://gw.example', frameAncestors: [] },
  });
  await expect(railed.reveal(caller, 'Card:a', 'ApiToken:t1')).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  allows.set('Customer:eu', true);
  await expect(railed.reveal(caller, 'Card:a', 'ApiToken:t1')).resolves.toHaveProperty('panEmbedUrl');
});
