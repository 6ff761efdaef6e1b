/** The value without its undefined members: an absent optional is left out of the JSON. */
export function withoutAbsent<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** An optional list member: omitted when empty. */
export function nonEmpty<T>(list: T[] | undefined): T[] | undefined {
  return list && list.length ? list : undefined;
}
