import { createFileRegistry, fromBinary, type DescField, type DescMessage, type Registry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The "add a member to a resource" recipe (docs/contributing.md) as checks: a member of a contract
 * schema has a field of the same JSON name in the proto message it is carried in (memberProblems),
 * and the renderer of the REST JSON writes every member of the schema (renderedProblems).
 */

/** The JSON Schema a TypeBox contract schema is: only what the checks read. */
export interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

/** Every proto message the build generates (gen/descriptor.binpb, written by `npm run generate`). */
export function protoRegistry(): Registry {
  const bytes = readFileSync(join(__dirname, '..', '..', 'gen', 'descriptor.binpb'));
  return createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes));
}

/** The object schemas a member's schema stands for (its variants, an array's items), for walking into. */
function objectsOf(schema: SchemaNode): SchemaNode[] {
  if (schema.anyOf) return schema.anyOf.flatMap(objectsOf);
  if (schema.type === 'array' && schema.items) return objectsOf(schema.items);
  return schema.type === 'object' && schema.properties ? [schema] : [];
}

/** The members of an object schema, or of every variant of a union, by name (a member in two variants once). */
export function membersOf(schema: SchemaNode): Map<string, SchemaNode[]> {
  const members = new Map<string, SchemaNode[]>();
  for (const object of objectsOf(schema)) {
    for (const [name, member] of Object.entries(object.properties ?? {})) {
      members.set(name, [...(members.get(name) ?? []), member]);
    }
  }
  return members;
}

export interface MemberPairing {
  /** How the problems name the schema (`Customer`). */
  name: string;
  schema: SchemaNode;
  message: DescMessage;
  /**
   * Members (as `path.member`, from the schema's name) that truly differ between REST and proto, each with
   * its reason: no field is looked for, nor inside them.
   */
  differ?: Readonly<Record<string, string>>;
}

const messageOf = (field: DescField): DescMessage | undefined =>
  field.fieldKind === 'message'
    ? field.message
    : field.fieldKind === 'list' && field.listKind === 'message'
    ? field.message
    : field.fieldKind === 'map' && field.mapKind === 'message'
    ? field.message
    : undefined;

/**
 * One line per member of the schema (walking into members that are objects carried as messages) that
 * has no field of its JSON name in the message.
 */
export function memberProblems({ name, schema, message, differ = {} }: MemberPairing): string[] {
  const walk = (path: string, at: SchemaNode, msg: DescMessage): string[] => {
    const fields = new Map(msg.fields.map((f) => [f.jsonName, f]));
    return [...membersOf(at)].flatMap(([member, schemas]) => {
      const where = `${path}.${member}`;
      if (Object.hasOwn(differ, where)) return [];
      const field = fields.get(member);
      if (!field) return [`${where}: no field "${member}" in ${msg.typeName}`];
      const inner = messageOf(field);
      if (!inner) return [];
      const objects = schemas.flatMap(objectsOf);
      return objects.length ? walk(where, { anyOf: objects }, inner) : [];
    });
  };
  return walk(name, schema, message);
}

/**
 * One line per member of the schema that none of the rendered values has (walking into members that
 * are objects). `rendered` are the renderer's answers for messages with every field set, one per
 * variant of a union, so every member a renderer can write is there.
 */
export function renderedProblems(
  { name, schema, rendered, differ = {} }: {
    name: string;
    schema: SchemaNode;
    rendered: readonly unknown[];
    differ?: Readonly<Record<string, string>>;
  },
): string[] {
  const walk = (path: string, at: SchemaNode, values: unknown[]): string[] => {
    const objects = values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null
    );
    return [...membersOf(at)].flatMap(([member, schemas]) => {
      const where = `${path}.${member}`;
      if (Object.hasOwn(differ, where)) return [];
      const written = objects.filter((o) => o[member] !== undefined).map((o) => o[member]);
      if (!written.length) return [`${where}: not written by the renderer`];
      const inner = schemas.flatMap(objectsOf);
      return inner.length ? walk(where, { anyOf: inner }, written) : [];
    });
  };
  return walk(name, schema, [...rendered]);
}

/**
 * A message as ts-proto types it (gen/), every field set: strings to their field's name (`{}` for a
 * `*_json` field), numbers to 1,
 * enums to their first named value, lists to one entry, nested messages likewise (to `depth`); a oneof
 * to its first field. `overrides` set top-level fields (a union's discriminator).
 */
export function filledMessage(
  message: DescMessage,
  overrides: Record<string, unknown> = {},
  depth = 4,
): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of message.fields) {
    const sample = sampleOf(field, depth);
    if (sample === undefined) continue;
    if (field.oneof && !isSyntheticOneof(field)) {
      value[field.oneof.localName] ??= { $case: field.localName, value: sample };
    } else value[field.localName] = sample;
  }
  return { ...value, ...overrides };
}

const isSyntheticOneof = (field: DescField) => field.oneof !== undefined && field.proto.proto3Optional === true;

function scalarSample(field: DescField): unknown {
  if (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) {
    return field.enum!.values.find((v) => v.number !== 0)?.name ?? field.enum!.values[0].name;
  }
  const scalar = field.scalar;
  if (scalar === undefined) return undefined;
  // ScalarType: 8 bool, 9 string, 12 bytes; every other one is a number (forceLong=number).
  if (scalar === 8) return true;
  // A string field named *Json carries JSON text (the REST member is an object).
  if (scalar === 9) return field.localName.endsWith('Json') ? '{}' : field.localName;
  if (scalar === 12) return new Uint8Array([1]);
  return 1;
}

function sampleOf(field: DescField, depth: number): unknown {
  const inner = messageOf(field);
  if (inner && depth === 0) return undefined;
  const one = inner ? filledMessage(inner, {}, depth - 1) : scalarSample(field);
  if (one === undefined) return undefined;
  if (field.fieldKind === 'list') return [one];
  if (field.fieldKind === 'map') return { key: one };
  return one;
}
