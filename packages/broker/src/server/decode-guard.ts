import { ValidationError } from '../state/model/errors.js';

/**
 * What a guarded request deserializer returns for bytes that do not decode as
 * the request message. grpc-js answers INTERNAL when a deserializer throws,
 * before any handler runs; a bad request is the client's mistake, so the
 * handler sees this value instead and answers INVALID_ARGUMENT (`requestError`).
 */
export class UndecodableRequest {
  constructor(
    readonly message: string,
    readonly reason: string,
  ) {}
}

interface Decoding {
  readonly requestDeserialize: (bytes: Buffer) => unknown;
  readonly originalName?: string;
}

/** A copy of a service definition whose request deserializers never throw (see UndecodableRequest). */
export function guardDecoding<S extends { readonly [method: string]: Decoding }>(service: S): S {
  const out: Record<string, Decoding> = {};
  for (const [name, method] of Object.entries(service)) {
    const decode = method.requestDeserialize;
    const message = method.originalName ?? name;
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer) => {
        try {
          return decode(bytes);
        } catch (err) {
          return new UndecodableRequest(message, err instanceof Error ? err.message : String(err));
        }
      },
    };
  }
  return out as S;
}

/** Throws INVALID_ARGUMENT (field `request`) when a guarded deserializer could not decode `request`. */
export function checkDecoded(request: unknown): void {
  if (request instanceof UndecodableRequest) {
    throw new ValidationError('request', `is not a valid ${request.message} request: ${request.reason}`);
  }
}
