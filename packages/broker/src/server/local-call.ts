/**
 * Runs a unary method of this node's client services in-process, as a gRPC
 * call of it runs: the same permission table as the auth interceptor
 * (`callRequirements` and `messageRequirements`), then the same service
 * definition (decoding guard, forwarding to the leader) and the same handler.
 * The HTTP API makes every call through it, so an HTTP request is answered,
 * refused and forwarded exactly as the gRPC call with the same bytes and
 * token would be.
 */
import { EventEmitter } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import { authorizeCall, type Requirement, type TokenTable } from './auth.js';
import { callRequirements, messageRequirements } from './auth-interceptor.js';

/** What a service definition's method holds that a call needs (grpc-js `MethodDefinition`). */
export interface LocalMethodDefinition {
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  readonly requestDeserialize: (bytes: Buffer) => unknown;
  readonly responseSerialize: (value: never) => Buffer;
}

/** A call refused or failed: its gRPC status, with the trailing metadata (`fermata-field`, ...). */
export class CallStatusError extends Error {
  override readonly name = 'CallStatusError';
  constructor(
    readonly code: grpc.status,
    readonly details: string,
    readonly metadata: grpc.Metadata = new grpc.Metadata(),
  ) {
    super(details);
  }
}

export interface LocalCallOptions {
  /** The tokens in force (empty table: authentication off). */
  readonly tokens: () => TokenTable;
  /** The topic of a delivery tag's queue (for `consume` checks of ack, nack, extend). */
  readonly topicOfTag: (tag: Uint8Array) => Promise<string | undefined>;
  readonly log?: { info(fields: object, message: string): void };
  /**
   * How long a call may run (ms), as a gRPC client's deadline bounds it: the
   * handler and a forwarded call see it, and past it the call is cancelled
   * and answers DEADLINE_EXCEEDED. Unset: no bound.
   */
  readonly deadlineMs?: number;
}

/** Who made the call, for logs: `http:<address>`. */
export interface CallOrigin {
  readonly peer: string;
  /** Fires when the caller went away: the call is cancelled (a forwarded call too). */
  readonly signal?: AbortSignal;
}

interface Method {
  readonly definition: LocalMethodDefinition;
  readonly handler: grpc.UntypedHandleCall;
}

/**
 * The unary-call surface of a grpc-js `ServerUnaryCall` that the handlers and
 * the forwarding wrapper use: request, metadata, peer, deadline and the
 * `cancelled` event.
 */
class LocalUnaryCall extends EventEmitter {
  cancelled = false;
  constructor(
    readonly request: unknown,
    readonly metadata: grpc.Metadata,
    private readonly peer: string,
    private readonly path: string,
    private readonly deadline: grpc.Deadline,
  ) {
    super();
  }
  getPeer(): string {
    return this.peer;
  }
  getPath(): string {
    return this.path;
  }
  getDeadline(): grpc.Deadline {
    return this.deadline;
  }
  sendMetadata(): void {}
}

export class LocalCaller {
  private readonly methods = new Map<string, Method>();

  constructor(private readonly options: LocalCallOptions) {}

  /** Makes the methods of a service (as registered with the gRPC server) callable. */
  register(definition: object, handlers: object): void {
    const defs = definition as Record<string, LocalMethodDefinition>;
    const hs = handlers as Record<string, grpc.UntypedHandleCall | undefined>;
    for (const [name, d] of Object.entries(defs)) {
      const handler = hs[name];
      if (handler) this.methods.set(d.path, { definition: d, handler });
    }
  }

  /** Whether `path` (`/fermata.v1.Broker/Publish`) is a method of this server. */
  has(path: string): boolean {
    return this.methods.has(path);
  }

  /**
   * What the auth interceptor checks before a call's request is read: a known
   * token and the method's own requirements. The HTTP API checks this before
   * it reads a body, so a caller without a token makes it read nothing.
   */
  admit(path: string, metadata: grpc.Metadata, origin: CallOrigin): void {
    const table = this.options.tokens();
    if (table.enabled) this.check(table, path, metadata, origin, callRequirements(path));
  }

  private check(
    table: TokenTable,
    path: string,
    metadata: grpc.Metadata,
    origin: CallOrigin,
    requirements: readonly Requirement[],
  ): void {
    const failure = authorizeCall(table, metadata, requirements);
    if (!failure) return;
    this.options.log?.info(
      { method: path, peer: origin.peer, code: grpc.status[failure.code] },
      `call refused: ${failure.details}`,
    );
    throw new CallStatusError(failure.code, failure.details);
  }

  /**
   * Calls unary method `path` with the wire bytes of its request and the
   * call's `metadata` (`authorization` among it); resolves with the wire bytes
   * of the answer, or rejects with a CallStatusError.
   */
  async call(
    path: string,
    request: Uint8Array,
    metadata: grpc.Metadata,
    origin: CallOrigin,
  ): Promise<Buffer> {
    const method = this.methods.get(path);
    if (!method || method.definition.requestStream || method.definition.responseStream) {
      throw new CallStatusError(grpc.status.UNIMPLEMENTED, `${path} is not a unary method of this server`);
    }
    const bytes = Buffer.from(request.buffer, request.byteOffset, request.byteLength);
    const decoded = method.definition.requestDeserialize(bytes);
    const table = this.options.tokens();
    if (table.enabled) {
      const message = (typeof decoded === 'object' && decoded !== null ? decoded : {}) as Record<
        string,
        unknown
      >;
      this.check(table, path, metadata, origin, [
        ...callRequirements(path),
        ...(await messageRequirements(path, message, this.options.topicOfTag)),
      ]);
    }
    const { deadlineMs } = this.options;
    const call = new LocalUnaryCall(
      decoded,
      metadata,
      origin.peer,
      path,
      deadlineMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + deadlineMs,
    );
    const cancel = () => {
      call.cancelled = true;
      call.emit('cancelled', 'cancelled');
    };
    origin.signal?.addEventListener('abort', cancel, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<Buffer>((resolve, reject) => {
        if (deadlineMs !== undefined) {
          timer = setTimeout(() => {
            cancel();
            reject(
              new CallStatusError(
                grpc.status.DEADLINE_EXCEEDED,
                `no answer within the deadline of ${deadlineMs} ms; a write may still be applied (retry with the same idempotency key)`,
              ),
            );
          }, deadlineMs);
        }
        const callback = (err: Partial<grpc.StatusObject> | null, value?: unknown) => {
          if (err) {
            reject(
              new CallStatusError(
                err.code ?? grpc.status.UNKNOWN,
                err.details ?? (err instanceof Error ? err.message : 'call failed'),
                err.metadata ?? new grpc.Metadata(),
              ),
            );
            return;
          }
          // A forwarded answer is the leader's bytes already.
          resolve(Buffer.isBuffer(value) ? value : method.definition.responseSerialize(value as never));
        };
        (method.handler as grpc.handleUnaryCall<unknown, unknown>)(
          call as unknown as grpc.ServerUnaryCall<unknown, unknown>,
          callback as grpc.sendUnaryData<unknown>,
        );
      });
    } finally {
      clearTimeout(timer);
      origin.signal?.removeEventListener('abort', cancel);
    }
  }
}
