/**
 * A request message as the REST body it stands for, which the domain validates member by member:
 * absent members left out, and each list message (`{ values: [...] }`, a list whose presence
 * matters) as its array.
 */
export function restShape(message: object | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(message ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => [k, memberShape(v)]),
  );
}

function isList(v: object): v is { values: unknown[] } {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === 'values' && Array.isArray((v as { values: unknown }).values);
}

function memberShape(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(memberShape);
  if (typeof v !== 'object' || v === null) return v;
  return isList(v) ? v.values.map(memberShape) : restShape(v);
}
