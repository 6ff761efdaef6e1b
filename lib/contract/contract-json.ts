/*
 * A response message as its REST JSON, member by member as the contract's response schema lists
 * them (its order too): members the schema does not name (internal fields of the message) stay out,
 * an absent member stays out (or is null where the caller names it), and so does an empty list the
 * schema marks optional. Messages carry the REST member names, so no hand list copies the contract.
 */

type Json = Record<string, unknown>;

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: unknown;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function project(schema: Schema, value: unknown): unknown {
  if (schema.properties && schema.additionalProperties !== true && isObject(value)) return contractJson(schema, value);
  if (schema.items && Array.isArray(value)) return value.map((item) => project(schema.items!, item));
  return value;
}

interface ContractJsonOptions {
  /** Members written as `null` where the message leaves them out (the reference's explicit null). */
  nullWhenAbsent?: readonly string[];
}

/** `value` (a response message) as the REST JSON of the object schema `schema`. */
export function contractJson(schema: object, value: object, { nullWhenAbsent = [] }: ContractJsonOptions = {}): Json {
  const { properties = {}, required = [] } = schema as Schema;
  const json: Json = {};
  for (const [key, member] of Object.entries(properties)) {
    const v = (value as Json)[key];
    if (v === undefined || v === null) {
      if (nullWhenAbsent.includes(key)) json[key] = null;
      continue;
    }
    if (Array.isArray(v) && v.length === 0 && !required.includes(key)) continue;
    json[key] = project(member, v);
  }
  return json;
}
