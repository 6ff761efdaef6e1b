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
import { AppError, type FieldError } from '../errors';

/*
 * REST ⇄ proto by the protos' own descriptors: a request message's members carry the REST names
 * (each field's JSON name), so a REST body is read into the message member by member with no hand
 * list. The contract has checked the body's JSON types before (ajv at the edge); this moves values
 * (a member of the wrong type that no schema checked is listed in a 400, never passed on). Two REST
 * forms stand for small wrapper messages:
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

/** The JSON type a scalar field reads, with the words a refusal uses; undefined when the value fits. */
function scalarMismatch(scalar: ScalarType, v: unknown): string | undefined {
  switch (scalar) {
    case ScalarType.STRING:
      return typeof v === 'string' ? undefined : 'must be a string';
    case ScalarType.BOOL:
      return typeof v === 'boolean' ? undefined : 'must be true or false';
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return typeof v === 'number' ? undefined : 'must be a number';
    case ScalarType.BYTES:
      return 'is not read from JSON';
    default:
      return Number.isSafeInteger(v) ? undefined : 'must be an integer (minor units for amounts)';
  }
}

/**
 * Reads one body into a message. A member of the wrong JSON type (one the contract leaves
 * unchecked: checked members never arrive so) is listed, never passed on.
 */
class MessageReader {
  readonly errors: FieldError[] = [];

  private refuse(path: string, message: string): undefined {
    this.errors.push({ field: path, message });
    return undefined;
  }

  message(desc: DescMessage, body: Json, path: string, members?: ReadonlySet<string>): Json {
    const message: Json = {};
    for (const field of desc.fields) {
      if (!hasPresence(field)) message[memberName(field.name)] = zeroValue(field);
      if (members && !members.has(field.jsonName)) continue;
      const raw = body[field.jsonName];
      if (raw === undefined || (raw === null && !keepsNull(field))) continue;
      const value = this.field(field, raw, `${path}${field.jsonName}`);
      if (value === undefined) continue;
      if (field.oneof) message[memberName(field.oneof.name)] = { $case: memberName(field.name), value };
      else message[memberName(field.name)] = value;
    }
    return message;
  }

  private messageValue(desc: DescMessage, v: unknown, path: string): unknown {
    if (desc.typeName === 'google.protobuf.Struct') return isObject(v) ? v : this.refuse(path, 'must be an object');
    const wrapper = wrapperOf(desc);
    const [only] = desc.fields;
    if (wrapper === 'list') {
      return Array.isArray(v)
        ? { [memberName(only.name)]: this.list(only, v, path) }
        : this.refuse(path, 'must be an array');
    }
    if (wrapper === 'nullable' && !isObject(v)) return v === null ? {} : { value: this.field(only, v, path) };
    return isObject(v) ? this.message(desc, v, `${path}.`) : this.refuse(path, 'must be an object');
  }

  private list(field: DescField, items: unknown[], path: string): unknown[] {
    if (field.fieldKind !== 'list') return [];
    return items.map((item, i) => {
      const at = `${path}[${i}]`;
      if (field.listKind === 'message') return this.messageValue(field.message, item, at);
      if (field.listKind === 'enum') return typeof item === 'string' ? item : this.refuse(at, 'must be a string');
      const mismatch = scalarMismatch(field.scalar, item);
      return mismatch ? this.refuse(at, mismatch) : item;
    });
  }

  private field(field: DescField, v: unknown, path: string): unknown {
    switch (field.fieldKind) {
      case 'message':
        return this.messageValue(field.message, v, path);
      case 'list':
        return Array.isArray(v) ? this.list(field, v, path) : this.refuse(path, 'must be an array');
      case 'map':
        if (!isObject(v)) return this.refuse(path, 'must be an object');
        if (field.mapKind !== 'message') return v;
        return Object.fromEntries(
          Object.entries(v).map(([k, item]) => [k, this.messageValue(field.message, item, `${path}.${k}`)]),
        );
      case 'enum':
        return typeof v === 'string' ? v : this.refuse(path, 'must be a string');
      default: {
        const mismatch = scalarMismatch(field.scalar, v);
        return mismatch ? this.refuse(path, mismatch) : v;
      }
    }
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

/**
 * The request message `typeName` (e.g. `accounts.v1.CustomerFields`) from a REST body whose JSON
 * types the contract has checked: each field reads the body member of its JSON name. With `members`
 * (the contract's names for the body), a top-level field no member names is left at its zero value:
 * what the route or the service sets (path ids, headers) never comes from the body.
 */
export function restToMessage<T>(typeName: string, body: Json, members?: ReadonlySet<string>): T {
  const reader = new MessageReader();
  const message = reader.message(messageDesc(typeName), body, '', members);
  if (reader.errors.length) throw AppError.invalidInput('Invalid request', reader.errors);
  return message as T;
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
