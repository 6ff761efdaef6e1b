import {
  createFileRegistry,
  fromBinary,
  ScalarType,
  type DescField,
  type DescMessage,
  type FileRegistry,
} from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * REST ⇄ proto by the protos' own descriptors: a request message's members carry the REST names
 * (each field's JSON name), so a REST body is read into the message member by member with no hand
 * list. The contract has checked the body's JSON types before (ajv at the edge); this only moves
 * values. Two REST forms stand for small wrapper messages:
 *   - a list whose presence matters (a message whose one field is repeated) is a JSON array;
 *   - a nullable value (a message whose one field is `value`) is the value, or `null` for `{}`.
 * Elsewhere `null` reads as absent.
 */

type Json = Record<string, unknown>;

// From source (lib/contract) and from the build (dist/lib/contract) alike: gen/ sits at the project root.
const DESCRIPTOR_SET = [
  join(__dirname, '..', '..', 'gen', 'descriptor.binpb'),
  join(__dirname, '..', '..', '..', 'gen', 'descriptor.binpb'),
];

let registry: FileRegistry | undefined;

function protoRegistry(): FileRegistry {
  if (registry) return registry;
  const path = DESCRIPTOR_SET.find((p) => existsSync(p));
  if (!path) throw new Error('gen/descriptor.binpb is missing: run `npm run generate`');
  registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(path)));
  return registry;
}

function messageDesc(typeName: string): DescMessage {
  const desc = protoRegistry().getMessage(typeName);
  if (!desc) throw new Error(`no message ${typeName} in gen/descriptor.binpb`);
  return desc;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The member name ts-proto gives a field (lowerCamelCase of the proto name). */
const memberName = (protoName: string) => protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A wrapper read from a bare JSON value: its one field's kind (a list, or `value`), if it is one. */
function wrapperOf(desc: DescMessage): 'list' | 'nullable' | undefined {
  if (desc.fields.length !== 1) return undefined;
  const [only] = desc.fields;
  if (only.fieldKind === 'list') return 'list';
  if (only.name === 'value' && only.fieldKind !== 'map') return 'nullable';
  return undefined;
}

function messageValue(desc: DescMessage, v: unknown): unknown {
  if (desc.typeName === 'google.protobuf.Struct') return v;
  const wrapper = wrapperOf(desc);
  const [only] = desc.fields;
  if (wrapper === 'list' && Array.isArray(v)) return { [memberName(only.name)]: listValue(only, v) };
  if (wrapper === 'nullable' && !isObject(v)) return v === null ? {} : { value: fieldValue(only, v) };
  return isObject(v) ? readMessage(desc, v) : undefined;
}

function listValue(field: DescField, items: unknown[]): unknown[] {
  if (field.fieldKind !== 'list') return [];
  const desc = field.listKind === 'message' ? field.message : undefined;
  return items.map((item) => (desc ? messageValue(desc, item) : item));
}

function fieldValue(field: DescField, v: unknown): unknown {
  switch (field.fieldKind) {
    case 'message':
      return messageValue(field.message, v);
    case 'list':
      return Array.isArray(v) ? listValue(field, v) : undefined;
    case 'map':
      if (!isObject(v)) return undefined;
      if (field.mapKind !== 'message') return v;
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, messageValue(field.message, item)]));
    default:
      return v;
  }
}

/** A nullable wrapper keeps `null` (it means "clear"); every other member reads `null` as absent. */
const keepsNull = (field: DescField) => field.fieldKind === 'message' && wrapperOf(field.message) === 'nullable';

/** What ts-proto holds for a field without presence that the body leaves out (its zero value). */
function zeroValue(field: DescField): unknown {
  switch (field.fieldKind) {
    case 'list':
      return [];
    case 'map':
      return {};
    case 'enum':
      return field.enum.values[0].name;
    case 'scalar':
      if (field.scalar === ScalarType.STRING) return '';
      if (field.scalar === ScalarType.BOOL) return false;
      return field.scalar === ScalarType.BYTES ? Buffer.alloc(0) : 0;
    default:
      return undefined;
  }
}

const hasPresence = (field: DescField) =>
  field.fieldKind === 'message' || field.oneof !== undefined || field.proto.proto3Optional === true;

function readMessage(desc: DescMessage, body: Json, members?: ReadonlySet<string>): Json {
  const message: Json = {};
  for (const field of desc.fields) {
    if (!hasPresence(field)) message[memberName(field.name)] = zeroValue(field);
    if (members && !members.has(field.jsonName)) continue;
    const raw = body[field.jsonName];
    if (raw === undefined || (raw === null && !keepsNull(field))) continue;
    const value = fieldValue(field, raw);
    if (value === undefined) continue;
    if (field.oneof) message[memberName(field.oneof.name)] = { $case: memberName(field.name), value };
    else message[memberName(field.name)] = value;
  }
  return message;
}

/**
 * The request message `typeName` (e.g. `accounts.v1.CustomerFields`) from a REST body whose JSON
 * types the contract has checked: each field reads the body member of its JSON name. With `members`
 * (the contract's names for the body), a top-level field no member names is left at its zero value:
 * what the route or the service sets (path ids, headers) never comes from the body.
 */
export function restToMessage<T>(typeName: string, body: Json, members?: ReadonlySet<string>): T {
  return readMessage(messageDesc(typeName), body, members) as T;
}

interface ObjectSchema {
  properties?: Record<string, unknown>;
  then?: ObjectSchema;
  else?: ObjectSchema;
  allOf?: ObjectSchema[];
  anyOf?: ObjectSchema[];
  oneOf?: ObjectSchema[];
}

/** The member names an object schema gives, with those of its branches (if/then, allOf, anyOf, oneOf). */
export function schemaMembers(schema: object): Set<string> {
  const s = schema as ObjectSchema;
  const branches = [s.then, s.else, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  return new Set([
    ...Object.keys(s.properties ?? {}),
    ...branches.flatMap((branch) => (branch ? [...schemaMembers(branch)] : [])),
  ]);
}

/** The JSON names of a message's fields (what a REST member must be called to reach it). */
export function jsonNames(typeName: string): string[] {
  return messageDesc(typeName).fields.map((f) => f.jsonName);
}
