import { randomUUID } from 'node:crypto';

/** The `_id` given to a document an upsert creates when neither filter nor update names one. */
export function newDocumentId(): string {
  return randomUUID();
}
