/** Domain records keep `id`; documents keep it as `_id`. */
export function toDocument<T extends { id: string }>(record: T): { _id: string } & Omit<T, 'id'> {
  const { id, ...rest } = record;
  return { _id: id, ...rest };
}

export function fromDocument<T extends { id: string }>(
  doc: ({ _id: string } & Record<string, unknown>) | null,
): T | null {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  return { id: _id, ...rest } as unknown as T;
}
