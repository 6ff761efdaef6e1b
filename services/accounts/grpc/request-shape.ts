/**
 * A request message as the REST body it stands for, which the domain validates member by member:
 * absent members left out, and each StringList (a list whose presence matters) as its array.
 */
export function restShape(message: object | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(message ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => [k, memberShape(v)]));
}

function isStringList(v: object): v is { values: string[] } {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === 'values' && Array.isArray((v as { values: unknown }).values);
}

function memberShape(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  return isStringList(v) ? v.values : restShape(v);
}
