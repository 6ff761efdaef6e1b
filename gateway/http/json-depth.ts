/** How deeply a request body may nest objects and arrays; deeper bodies are refused (400). */
export const MAX_JSON_DEPTH = 32;

/** The nesting depth of a parsed JSON value (a scalar is 0), walked without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    if (inner > MAX_JSON_DEPTH) return inner;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, inner]);
  }
  return deepest;
}
