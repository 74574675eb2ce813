/**
 * The standard gRPC health service (`grpc.health.v1.Health`, Check and Watch)
 * on the client port, driven by the same readiness rule as /readyz. The two
 * tiny messages are encoded by hand so the health proto stays out of the
 * generated `fermata.v1` code.
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs/minimal.js';
import type { Readiness } from './readiness.js';

export const ServingStatus = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;
export type ServingStatus = (typeof ServingStatus)[keyof typeof ServingStatus];

export interface HealthCheckRequest {
  service: string;
}
export interface HealthCheckResponse {
  status: ServingStatus;
}

function encodeRequest(m: HealthCheckRequest): Buffer {
  const w = protobuf.Writer.create();
  if (m.service !== '') w.uint32((1 << 3) | 2).string(m.service);
  return Buffer.from(w.finish());
}

function decodeRequest(b: Buffer): HealthCheckRequest {
  const r = protobuf.Reader.create(b);
  const m: HealthCheckRequest = { service: '' };
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === 1 && (tag & 7) === 2) m.service = r.string();
    else r.skipType(tag & 7);
  }
  return m;
}

function encodeResponse(m: HealthCheckResponse): Buffer {
  const w = protobuf.Writer.create();
  if (m.status !== 0) w.uint32((1 << 3) | 0).int32(m.status);
  return Buffer.from(w.finish());
}

function decodeResponse(b: Buffer): HealthCheckResponse {
  const r = protobuf.Reader.create(b);
  const m: HealthCheckResponse = { status: ServingStatus.UNKNOWN };
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === 1 && (tag & 7) === 0) m.status = r.int32() as ServingStatus;
    else r.skipType(tag & 7);
  }
  return m;
}

/** grpc-js definition of `grpc.health.v1.Health` (Check, Watch). */
export const HealthService = {
  check: {
    path: '/grpc.health.v1.Health/Check',
    requestStream: false,
    responseStream: false,
    requestSerialize: encodeRequest,
    requestDeserialize: decodeRequest,
    responseSerialize: encodeResponse,
    responseDeserialize: decodeResponse,
    originalName: 'Check',
  },
  watch: {
    path: '/grpc.health.v1.Health/Watch',
    requestStream: false,
    responseStream: true,
    requestSerialize: encodeRequest,
    requestDeserialize: decodeRequest,
    responseSerialize: encodeResponse,
    responseDeserialize: decodeResponse,
    originalName: 'Watch',
  },
} satisfies grpc.ServiceDefinition;

export interface HealthHandlers extends grpc.UntypedServiceImplementation {
  check: grpc.handleUnaryCall<HealthCheckRequest, HealthCheckResponse>;
  watch: grpc.handleServerStreamingCall<HealthCheckRequest, HealthCheckResponse>;
}

/** The services whose health this node reports; '' is the whole server. */
export const HEALTH_SERVICES: readonly string[] = [
  '',
  'fermata.v1.Broker',
  'fermata.v1.Admin',
  'fermata.v1.Cluster',
];

export interface HealthReporterOptions {
  readiness: () => Readiness;
  /** Default HEALTH_SERVICES. */
  services?: readonly string[];
  /** Watchers are told of changes found by re-reading readiness this often (and on `update()`). Default 1000. */
  pollIntervalMs?: number;
}

/**
 * Serves Check and Watch. Every known service is SERVING exactly while the node
 * is ready; an unknown service is NOT_FOUND on Check and SERVICE_UNKNOWN on Watch.
 */
export class HealthReporter {
  readonly handlers: HealthHandlers;
  private readonly services: ReadonlySet<string>;
  private readonly watchers = new Set<{
    call: grpc.ServerWritableStream<HealthCheckRequest, HealthCheckResponse>;
    last: ServingStatus;
  }>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: HealthReporterOptions) {
    this.services = new Set(options.services ?? HEALTH_SERVICES);
    this.timer = setInterval(() => this.update(), options.pollIntervalMs ?? 1000);
    this.timer.unref();
    this.handlers = {
      check: (call, callback) => {
        const service = call.request.service;
        if (!this.services.has(service)) {
          callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${JSON.stringify(service)}` });
          return;
        }
        callback(null, { status: this.statusOf(service) });
      },
      watch: (call) => {
        const watcher = { call, last: this.statusOf(call.request.service) };
        call.write({ status: watcher.last });
        if (this.closed) {
          call.end();
          return;
        }
        this.watchers.add(watcher);
        const drop = () => this.watchers.delete(watcher);
        call.on('cancelled', drop);
        call.on('close', drop);
        call.on('error', drop);
      },
    };
  }

  /** Open Watch calls (for shutdown and tests). */
  get watching(): number {
    return this.watchers.size;
  }

  /** The status reported now for `service`. */
  statusOf(service: string): ServingStatus {
    if (!this.services.has(service)) return ServingStatus.SERVICE_UNKNOWN;
    if (this.closed) return ServingStatus.NOT_SERVING;
    let ready = false;
    try {
      ready = this.options.readiness().ready;
    } catch {
      ready = false;
    }
    return ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
  }

  /** Re-reads readiness and tells watchers whose status changed. Call it on role or leader changes. */
  update(): void {
    for (const w of this.watchers) {
      const now = this.statusOf(w.call.request.service);
      if (now !== w.last) {
        w.last = now;
        w.call.write({ status: now });
      }
    }
  }

  /** For shutdown: everything turns NOT_SERVING, watchers are told and their streams end. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.update();
    for (const w of this.watchers) w.call.end();
    this.watchers.clear();
  }
}

export interface HealthClient extends grpc.Client {
  check(
    request: HealthCheckRequest,
    callback: (err: grpc.ServiceError | null, response?: HealthCheckResponse) => void,
  ): grpc.ClientUnaryCall;
  check(
    request: HealthCheckRequest,
    options: grpc.CallOptions,
    callback: (err: grpc.ServiceError | null, response?: HealthCheckResponse) => void,
  ): grpc.ClientUnaryCall;
  watch(
    request: HealthCheckRequest,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<HealthCheckResponse>;
}

export function makeHealthClient(
  address: string,
  credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure(),
  options: grpc.ChannelOptions = {},
): HealthClient {
  const Ctor = grpc.makeGenericClientConstructor(HealthService, 'grpc.health.v1.Health');
  return new Ctor(address, credentials, options) as unknown as HealthClient;
}
