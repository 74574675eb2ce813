/**
 * The gRPC server interceptor that enforces tokens and permissions on the
 * client port, before any handler runs. Which permission a call needs, on
 * which topics, is the table in `requirementsOf`; calls that act on delivery
 * tags (ack, nack, extend) need `consume` on the topic the tag's queue belongs
 * to, looked up from the store.
 */
import * as grpc from '@grpc/grpc-js';
import {
  type AuthFailure,
  authorize,
  isAuthFailure,
  type Principal,
  type Requirement,
  type TokenTable,
} from './auth.js';

/** The subset of the server logger this needs. */
export interface AuthLog {
  info(fields: object, message: string): void;
}

export interface AuthInterceptorOptions {
  /** The current tokens (the table is replaced when the token file changes). */
  readonly tokens: () => TokenTable;
  /** The topic of the queue a delivery tag belongs to; undefined for an unknown or malformed tag. */
  readonly topicOfTag: (tag: Uint8Array) => Promise<string | undefined>;
  readonly log?: AuthLog;
  /** The connection of `peer` (`call.getPeer()`) made a call with a valid token. */
  readonly onAuthenticated?: (peer: string) => void;
}

/** Services that answer without a token: gRPC health (probes, load balancers). */
const OPEN_SERVICES = ['/grpc.health.v1.Health/'];

const BROKER = '/fermata.v1.Broker/';
const ADMIN = '/fermata.v1.Admin/';
const CLUSTER = '/fermata.v1.Cluster/';

/** What a call needs before any message is read (method-level rules). */
export function callRequirements(path: string): Requirement[] {
  switch (path) {
    case `${ADMIN}ListTopics`:
      return [{ kind: 'any-topic', permission: 'admin', what: 'ListTopics' }];
    case `${CLUSTER}AddMember`:
    case `${CLUSTER}RemoveMember`:
    case `${CLUSTER}TransferLeadership`:
      return [{ kind: 'all-topics', permission: 'admin', what: path.slice(CLUSTER.length) }];
    default:
      return [{ kind: 'authenticated' }];
  }
}

type Msg = Record<string, unknown>;
type TagLookup = (tag: Uint8Array) => Promise<string | undefined>;

function topicsOf(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  return messages.map((m: Msg | null) => (typeof m?.['topic'] === 'string' ? (m['topic'] as string) : ''));
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `consume` on the topics of these tags; an unknown tag needs `consume` somewhere (the handler answers it). */
async function tagRequirements(
  tags: readonly unknown[],
  lookup: TagLookup,
  what: string,
): Promise<Requirement[]> {
  const topics = new Set<string>();
  let unknown = false;
  for (const tag of tags) {
    const topic = tag instanceof Uint8Array ? await lookup(tag) : undefined;
    if (topic === undefined) unknown = true;
    else topics.add(topic);
  }
  const out: Requirement[] = [];
  if (topics.size > 0) out.push({ kind: 'topics', permission: 'consume', topics: [...topics] });
  if (unknown) out.push({ kind: 'any-topic', permission: 'consume', what });
  return out;
}

/** What one request message needs (topic-level rules). */
export async function messageRequirements(path: string, msg: Msg, lookup: TagLookup): Promise<Requirement[]> {
  const one = (permission: 'publish' | 'consume' | 'admin', topic: unknown): Requirement[] => [
    { kind: 'topics', permission, topics: [str(topic)] },
  ];
  switch (path) {
    case `${BROKER}Publish`:
    case `${BROKER}PublishStream`:
      return [{ kind: 'topics', permission: 'publish', topics: topicsOf(msg['messages']) }];
    case `${BROKER}Cancel`:
    case `${BROKER}Reschedule`:
      return one('publish', msg['topic']);
    case `${BROKER}GetMessage`:
    case `${BROKER}ListMessages`:
      return one('consume', msg['topic']);
    case `${BROKER}Ack`:
      return tagRequirements(Array.isArray(msg['tags']) ? msg['tags'] : [], lookup, 'Ack');
    case `${BROKER}Nack`:
    case `${BROKER}Extend`:
      return tagRequirements([msg['tag']], lookup, path.slice(BROKER.length));
    case `${BROKER}Consume`: {
      const sub = msg['subscribe'] as Msg | undefined | null;
      if (sub) return one('consume', sub['topic']);
      const ack = msg['ack'] as Msg | undefined | null;
      if (ack) return tagRequirements(Array.isArray(ack['tags']) ? ack['tags'] : [], lookup, 'ack');
      const nack = (msg['nack'] ?? msg['extend']) as Msg | undefined | null;
      if (nack) return tagRequirements([nack['tag']], lookup, msg['nack'] ? 'nack' : 'extend');
      return [];
    }
    case `${ADMIN}CreateTopic`:
    case `${ADMIN}UpdateTopic`:
    case `${ADMIN}DeleteTopic`:
      return one('admin', msg['name']);
    case `${ADMIN}GetTopicStats`:
    case `${ADMIN}CreateGroup`:
    case `${ADMIN}DeleteGroup`:
      return one('admin', msg['topic']);
    default:
      return [];
  }
}

/**
 * A server interceptor enforcing the token table. With no tokens configured it
 * lets everything through untouched. A refused call ends with
 * UNAUTHENTICATED or PERMISSION_DENIED before its handler sees the request; a
 * refused message on a stream ends the stream.
 */
export function createAuthInterceptor(options: AuthInterceptorOptions): grpc.ServerInterceptor {
  return (method, call) => {
    const path = method.path;
    const table = options.tokens();
    if (!table.enabled || OPEN_SERVICES.some((p) => path.startsWith(p))) {
      return new grpc.ServerInterceptingCall(call);
    }
    let principal: Principal | undefined;
    let refused = false;
    // Messages are checked in order; a tag lookup is asynchronous, so later messages wait for it.
    let tail: Promise<void> = Promise.resolve();
    const refuse = (failure: AuthFailure) => {
      if (refused) return;
      refused = true;
      options.log?.info(
        {
          method: path,
          token: principal?.name ?? null,
          peer: call.getPeer(),
          code: grpc.status[failure.code],
        },
        `call refused: ${failure.details}`,
      );
      call.sendStatus({ code: failure.code, details: failure.details, metadata: new grpc.Metadata() });
    };
    return new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, nextMetadata) => {
            const who = table.authenticate(metadata);
            if (isAuthFailure(who)) return refuse(who);
            principal = who;
            for (const r of callRequirements(path)) {
              const failure = authorize(who, r);
              if (failure) return refuse(failure);
            }
            options.onAuthenticated?.(call.getPeer());
            nextMetadata(metadata);
          },
          onReceiveMessage: (message: Msg, nextMessage) => {
            tail = tail.then(async () => {
              if (refused || principal === undefined) return;
              let reqs: Requirement[];
              try {
                reqs = await messageRequirements(path, message ?? {}, options.topicOfTag);
              } catch {
                reqs = [];
              }
              if (refused) return;
              for (const r of reqs) {
                const failure = authorize(principal, r);
                if (failure) return refuse(failure);
              }
              nextMessage(message);
            });
          },
          onReceiveHalfClose: (nextHalfClose) => {
            tail = tail.then(() => {
              if (!refused) nextHalfClose();
            });
          },
        }),
    });
  };
}
