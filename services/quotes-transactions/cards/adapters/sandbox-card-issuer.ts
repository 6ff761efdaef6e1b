import { createHash } from 'node:crypto';
import type { DocumentStore } from '../../../../lib/store/document-store';
import { DuplicateKeyError } from '../../../../lib/store/document-store';
import type { CardIssuer } from '../app/card-ports';
import type { Card, Provisioning } from '../domain/card';
import type { Sealer as CardDataSealer } from '../../../../lib/sealing/aes-gcm-sealer';

export const SANDBOX_CARD_DATA_COLLECTION = 'sandbox_card_data';
/** A platformCardId ending in this makes the sandbox issuer refuse the card (CLOSED, ISSUER_REJECTED). */
export const SANDBOX_REJECTED_SUFFIX = '-issuer-reject';

type CardDataDoc = {
  _id: string;
  platformId: string;
  sealed: string;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: string;
};

/** The Luhn check digit of `digits`. */
function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * Deterministic card data for a card id: a Visa test-range PAN passing Luhn, a CVV, an expiry four years after issue.
 */
export function sandboxCardData(card: Pick<Card, 'id' | 'createdAt'>) {
  const hash = createHash('sha256').update(card.id).digest();
  const body = '400000' + [...hash.subarray(0, 9)].map((b) => String(b % 10)).join('');
  const pan = body + luhnDigit(body);
  const cvv = String(hash.readUInt16BE(10) % 1000).padStart(3, '0');
  const issued = new Date(card.createdAt);
  return {
    pan,
    cvv,
    expMonth: issued.getUTCMonth() + 1,
    expYear: issued.getUTCFullYear() + 4,
    ref: hash.subarray(12, 16).toString('hex'),
  };
}

/**
 * The embedded issuer and processor: provisions every card (except those whose platformCardId
 * ends in SANDBOX_REJECTED_SUFFIX), keeping PAN, CVV and expiry sealed in its own collection,
 * keyed by the card id; a card provisioned twice keeps its first data.
 */
export function createSandboxCardIssuer(
  deps: { store: DocumentStore; sealer: CardDataSealer; clock: () => Date },
): CardIssuer & {
  ensureIndexes(): Promise<void>;
  /** The card's data, opened: for the processor's own reveal page only. */
  cardData(cardId: string): Promise<{ pan: string; cvv: string; expMonth: number; expYear: number } | null>;
} {
  const data = deps.store.collection<CardDataDoc>(SANDBOX_CARD_DATA_COLLECTION);
  return {
    async ensureIndexes() {
      // _id is the card id: nothing else to index.
    },
    async provision(card): Promise<Provisioning> {
      if (card.platformCardId.endsWith(SANDBOX_REJECTED_SUFFIX)) return { outcome: 'REJECTED' };
      const made = sandboxCardData(card);
      const sealed = deps.sealer.seal(
        JSON.stringify({ pan: made.pan, cvv: made.cvv, expMonth: made.expMonth, expYear: made.expYear }),
        card.id,
      );
      try {
        await data.insertOne({
          _id: card.id,
          platformId: card.platformId,
          sealed,
          last4: made.pan.slice(-4),
          expMonth: made.expMonth,
          expYear: made.expYear,
          createdAt: deps.clock().toISOString(),
        });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      const stored = (await data.findOne({ _id: card.id }))!;
      return {
        outcome: 'PROVISIONED',
        brand: 'VISA',
        last4: stored.last4,
        expMonth: stored.expMonth,
        expYear: stored.expYear,
        processorRef: `card_${made.ref}`,
        issuerRef: `sandbox_card_${made.ref}`,
      };
    },
    async cardData(cardId) {
      const doc = await data.findOne({ _id: cardId });
      return doc
        && (JSON.parse(deps.sealer.open(doc.sealed, cardId)) as {
          pan: string;
          cvv: string;
          expMonth: number;
          expYear: number;
        });
    },
  };
}
