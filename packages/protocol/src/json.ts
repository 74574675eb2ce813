/**
 * The JSON form of the `fermata.v1` messages, as the HTTP API reads and writes
 * them: proto3's JSON mapping (field names in lowerCamelCase, the proto's
 * snake_case accepted too; 64-bit integers as decimal strings, or numbers up
 * to 2^53; enums by name, or number; bytes as base64; maps as objects),
 * through protobufjs reflection of the generated descriptor.
 *
 * Read strictly: an unknown field, a value of the wrong type, a 64-bit value
 * out of range or two members of one oneof are refused with a
 * `JsonFieldError` naming the field (`messages[2].delayMs`), never dropped or
 * coerced to zero in silence.
 *
 * A subpath of its own (`@fermata/protocol/json`), not in the package's
 * index: building the reflection costs a 38 KB descriptor and its parse at
 * import, which the SDK, speaking only the wire form, never pays.
 */
import protobuf from 'protobufjs/light.js';
import { descriptor } from './generated/descriptor.js';
import { suggestNames } from './names.js';

const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
root.resolveAll();

/** A JSON value that is not the message it should be; `field` is its path (`messages[0].topic`, '' for the whole). */
export class JsonFieldError extends Error {
  override readonly name = 'JsonFieldError';
  constructor(
    readonly field: string,
    /** What is wrong, without the field. */
    readonly reason: string,
  ) {
    super(field === '' ? reason : `${field}: ${reason}`);
  }
}

/** A method of a `fermata.v1` service, from the descriptor. */
export interface MethodTypes {
  /** `/fermata.v1.Broker/Publish` */
  readonly path: string;
  readonly requestType: string;
  readonly responseType: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
}

/** The methods of service `fermata.v1.<service>`, by name; undefined for no such service. */
export function serviceMethods(service: string): ReadonlyMap<string, MethodTypes> | undefined {
  const found = root.lookup(`fermata.v1.${service}`);
  if (!(found instanceof protobuf.Service)) return undefined;
  return new Map(
    found.methodsArray.map((m) => [
      m.name,
      {
        path: `/fermata.v1.${service}/${m.name}`,
        requestType: m.requestType,
        responseType: m.responseType,
        requestStream: m.requestStream === true,
        responseStream: m.responseStream === true,
      },
    ]),
  );
}

function typeOf(name: string): protobuf.Type {
  return root.lookupType(`fermata.v1.${name}`);
}

/** The wire bytes of message type `typeName` (e.g. `PublishRequest`) written as JSON `value` (module comment). */
export function jsonToMessageBytes(typeName: string, value: unknown): Uint8Array {
  const type = typeOf(typeName);
  return type.encode(type.fromObject(messageFromJson(type, value, ''))).finish();
}

/** The JSON form of wire bytes of message type `typeName`: every field, defaults included. */
export function messageBytesToJson(typeName: string, bytes: Uint8Array): Record<string, unknown> {
  const type = typeOf(typeName);
  return type.toObject(type.decode(bytes), {
    longs: String,
    enums: String,
    bytes: String,
    defaults: true,
    arrays: true,
    objects: true,
  });
}

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** A JSON object: not null, not an array. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The field `name` of `type`; never a property every object has (`constructor`, `__proto__`). */
function fieldNamed(type: protobuf.Type, name: string): protobuf.Field | undefined {
  return Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
}

const at = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

function messageFromJson(type: protobuf.Type, value: unknown, path: string): Record<string, unknown> {
  if (!isJsonObject(value))
    throw new JsonFieldError(path, `must be a JSON object (${type.name}), got ${kindOf(value)}`);
  const out: Record<string, unknown> = {};
  const oneofs = new Map<string, string>();
  for (const [key, v] of Object.entries(value)) {
    const field = fieldNamed(type, key) ?? fieldNamed(type, camel(key));
    const where = at(path, key);
    if (field === undefined) {
      throw new JsonFieldError(
        where,
        `is not a field of ${type.name}${suggestNames(key, Object.keys(type.fields), 'fields')}`,
      );
    }
    if (v === null) continue;
    if (field.partOf) {
      const other = oneofs.get(field.partOf.name);
      if (other !== undefined)
        throw new JsonFieldError(where, `set with "${other}": ${field.partOf.name} takes one of them`);
      oneofs.set(field.partOf.name, key);
    }
    out[field.name] = fieldFromJson(field, v, where);
  }
  return out;
}

function fieldFromJson(field: protobuf.Field, v: unknown, where: string): unknown {
  if (field instanceof protobuf.MapField) {
    if (!isJsonObject(v)) throw new JsonFieldError(where, `must be a JSON object (a map), got ${kindOf(v)}`);
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) {
      if (field.keyType !== 'string' && field.keyType !== 'bool')
        scalar(field.keyType, k, `${where}["${k}"]`);
      out[k] = valueFromJson(field, item, `${where}["${k}"]`);
    }
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(v)) throw new JsonFieldError(where, `must be a JSON array, got ${kindOf(v)}`);
    return v.map((item, i) => valueFromJson(field, item, `${where}[${i}]`));
  }
  return valueFromJson(field, v, where);
}

function valueFromJson(field: protobuf.Field, v: unknown, where: string): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return messageFromJson(resolved, v, where);
  if (resolved instanceof protobuf.Enum) {
    if (typeof v === 'string' && v in resolved.values) return resolved.values[v];
    if (typeof v === 'number' && Object.values(resolved.values).includes(v)) return v;
    throw new JsonFieldError(
      where,
      `must be one of ${Object.keys(resolved.values).join(', ')}, got ${JSON.stringify(v)}`,
    );
  }
  return scalar(field.type, v, where);
}

const INT_RANGE: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

const BASE64 = /^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}(?:==)?|[A-Za-z0-9+/_-]{3}=?)?$/;

function scalar(type: string, v: unknown, where: string): unknown {
  const range = INT_RANGE[type];
  if (range !== undefined) {
    let n: bigint;
    if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
    else if (typeof v === 'string' && /^-?\d{1,20}$/.test(v)) n = BigInt(v);
    else {
      throw new JsonFieldError(
        where,
        `must be an integer (${type}: a number up to 2^53, or a decimal string), got ${JSON.stringify(v)}`,
      );
    }
    if (n < range[0] || n > range[1]) throw new JsonFieldError(where, `${n} is out of range for ${type}`);
    // Numbers stay numbers for 32-bit fields; 64-bit ones go on as strings (protobufjs reads them exactly).
    return type.endsWith('64') ? n.toString() : Number(n);
  }
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw new JsonFieldError(where, `must be a string, got ${kindOf(v)}`);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw new JsonFieldError(where, `must be true or false, got ${kindOf(v)}`);
      return v;
    case 'bytes':
      if (typeof v !== 'string' || !BASE64.test(v))
        throw new JsonFieldError(
          where,
          `must be base64 (bytes), got ${typeof v === 'string' ? 'other text' : kindOf(v)}`,
        );
      return Buffer.from(v, 'base64');
    case 'double':
    case 'float':
      if (typeof v === 'number') return v;
      if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return Number(v);
      throw new JsonFieldError(where, `must be a number, got ${kindOf(v)}`);
    default:
      throw new JsonFieldError(where, `has type ${type}, which the JSON mapping does not read`);
  }
}
