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
const SCHEDULES = '/fermata.v1.Schedules/';
const BACKUP = '/fermata.v1.Backup/';

/** What a call needs before any message is read (method-level rules). */
export function callRequirements(path: string): Requirement[] {
  switch (path) {
    case `${ADMIN}ListTopics`:
      return [{ kind: 'any-topic', permission: 'admin', what: 'ListTopics', orRead: true }];
    case `${CLUSTER}AddMember`:
    case `${CLUSTER}RemoveMember`:
    case `${CLUSTER}TransferLeadership`:
      return [{ kind: 'all-topics', permission: 'admin', what: path.slice(CLUSTER.length) }];
    // A backup holds every topic's messages.
    case `${BACKUP}TakeBackup`:
      return [{ kind: 'all-topics', permission: 'admin', what: 'TakeBackup' }];
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
  // A call that only reads: `read` on the topic allows it too.
  const read = (permission: 'publish' | 'consume' | 'admin', topic: unknown): Requirement[] => [
    { kind: 'topics', permission, topics: [str(topic)], orRead: true },
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
    case `${BROKER}GetDueForecast`:
      return read('consume', msg['topic']);
    // Moves messages from the topic's dead-letter topic back into it: an operator's act.
    case `${BROKER}Redrive`:
      return one('admin', msg['topic']);
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
    // A schedule publishes to its topic: every schedule call needs `publish` there.
    case `${SCHEDULES}UpsertSchedule`: {
      const s = msg['schedule'] as Msg | undefined | null;
      return one('publish', s?.['topic']);
    }
    case `${SCHEDULES}UpsertSchedules`: {
      const defs = Array.isArray(msg['schedules']) ? (msg['schedules'] as (Msg | null)[]) : [];
      return [
        { kind: 'topics', permission: 'publish', topics: [...new Set(defs.map((d) => str(d?.['topic'])))] },
      ];
    }
    case `${SCHEDULES}GetSchedule`:
    case `${SCHEDULES}ListSchedules`:
      return read('publish', msg['topic']);
    case `${SCHEDULES}PauseSchedule`:
    case `${SCHEDULES}ResumeSchedule`:
    case `${SCHEDULES}TriggerSchedule`:
    case `${SCHEDULES}DeleteSchedule`:
      return one('publish', msg['topic']);
    case `${ADMIN}CreateTopic`:
    case `${ADMIN}UpdateTopic`: {
      // Setting a dead-letter topic writes to it: the caller must be allowed to publish there.
      const settings = msg['settings'] as Msg | undefined | null;
      const target = str(settings?.['deadLetterTopic']);
      return target === ''
        ? one('admin', msg['name'])
        : [...one('admin', msg['name']), ...one('publish', target)];
    }
    case `${ADMIN}DeleteTopic`:
      return one('admin', msg['name']);
    case `${ADMIN}GetTopicStats`:
      return read('admin', msg['topic']);
    case `${ADMIN}CreateGroup`:
    case `${ADMIN}UpdateGroup`:
    case `${ADMIN}DeleteGroup`:
    case `${ADMIN}TestPush`:
      return one('admin', msg['topic']);
    default:
      return [];
  }
}

/** Most distinct requirements remembered per open call for re-checking it when the tokens change. */
export const MAX_GRANTS_PER_CALL = 256;

/** One call in progress that a token let in: what it was granted, and how to end it. */
interface OpenCall {
  principal: Principal;
  readonly path: string;
  /** Requirements granted so far (method-level and per message), by `grantKey`. */
  readonly granted: Map<string, Requirement>;
  readonly refuse: (failure: AuthFailure) => void;
}

function grantKey(r: Requirement): string {
  const read = 'orRead' in r && r.orRead === true ? '+read' : '';
  return r.kind === 'topics'
    ? `${r.permission}${read}\u0000${r.topics.join('\u0000')}`
    : `${r.kind}:${'permission' in r ? r.permission : ''}${read}`;
}

/**
 * The auth interceptor and the calls it let in. `recheck` is run with each
 * new token table (the token file's reload): a call whose token is gone ends
 * with UNAUTHENTICATED, one whose token no longer grants what the call was
 * granted ends with PERMISSION_DENIED; the others continue under the new
 * permissions.
 */
export interface AuthGate {
  readonly interceptor: grpc.ServerInterceptor;
  /** Ends the open calls the new tokens no longer allow; returns how many. */
  recheck(table: TokenTable): number;
  /** Calls open under a token (for tests and metrics). */
  readonly openCalls: number;
}

/**
 * A server interceptor enforcing the token table. With no tokens configured it
 * lets everything through untouched. A refused call ends with
 * UNAUTHENTICATED or PERMISSION_DENIED before its handler sees the request; a
 * refused message on a stream ends the stream.
 */
export function createAuthInterceptor(options: AuthInterceptorOptions): AuthGate {
  const open = new Set<OpenCall>();
  const interceptor: grpc.ServerInterceptor = (method, call) => {
    const path = method.path;
    const table = options.tokens();
    if (!table.enabled || OPEN_SERVICES.some((p) => path.startsWith(p))) {
      return new grpc.ServerInterceptingCall(call);
    }
    let entry: OpenCall | undefined;
    let refused = false;
    // Messages are checked in order; a tag lookup is asynchronous, so later messages wait for it.
    let tail: Promise<void> = Promise.resolve();
    const forget = () => {
      if (entry) open.delete(entry);
    };
    const refuse = (failure: AuthFailure) => {
      if (refused) return;
      refused = true;
      forget();
      options.log?.info(
        {
          method: path,
          token: entry?.principal.name ?? null,
          peer: call.getPeer(),
          code: grpc.status[failure.code],
        },
        `call refused: ${failure.details}`,
      );
      call.sendStatus({ code: failure.code, details: failure.details, metadata: new grpc.Metadata() });
    };
    const grant = (reqs: readonly Requirement[]): AuthFailure | undefined => {
      if (!entry) return undefined;
      for (const r of reqs) {
        const failure = authorize(entry.principal, r);
        if (failure) return failure;
        if (entry.granted.size < MAX_GRANTS_PER_CALL) entry.granted.set(grantKey(r), r);
      }
      return undefined;
    };
    return new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, nextMetadata) => {
            const who = table.authenticate(metadata);
            if (isAuthFailure(who)) return refuse(who);
            entry = { principal: who, path, granted: new Map(), refuse };
            const failure = grant(callRequirements(path));
            if (failure) return refuse(failure);
            open.add(entry);
            options.onAuthenticated?.(call.getPeer());
            nextMetadata(metadata);
          },
          onReceiveMessage: (message: Msg, nextMessage) => {
            tail = tail.then(async () => {
              if (refused || entry === undefined) return;
              let reqs: Requirement[];
              try {
                reqs = await messageRequirements(path, message ?? {}, options.topicOfTag);
              } catch {
                reqs = [];
              }
              if (refused) return;
              const failure = grant(reqs);
              if (failure) return refuse(failure);
              nextMessage(message);
            });
          },
          onReceiveHalfClose: (nextHalfClose) => {
            tail = tail.then(() => {
              if (!refused) nextHalfClose();
            });
          },
          onCancel: forget,
        }),
      sendStatus: (status, next) => {
        forget();
        next(status);
      },
    });
  };
  return {
    interceptor,
    get openCalls() {
      return open.size;
    },
    recheck(next: TokenTable): number {
      let ended = 0;
      for (const c of [...open]) {
        const principal = next.principalOf(c.principal.spec.sha256);
        if (principal === undefined) {
          c.refuse({
            code: grpc.status.UNAUTHENTICATED,
            details: `token "${c.principal.name}" was revoked (removed from the token file)`,
          });
          ended++;
          continue;
        }
        c.principal = principal;
        for (const r of c.granted.values()) {
          const failure = authorize(principal, r);
          if (failure) {
            c.refuse({ code: failure.code, details: `${failure.details} (token file changed)` });
            ended++;
            break;
          }
        }
      }
      return ended;
    },
  };
}
