/**
 * The fermata.v1 messages the pages read, as the JSON API writes them
 * (proto3 JSON: lowerCamelCase, every field present, 64-bit integers as
 * decimal strings, enums by name).
 */

export type Int64 = string;

export interface Member {
  id: string;
  address: string;
  peerAddress: string;
  role: string;
  voter: boolean;
  matchIndex: Int64;
  lag: Int64;
}

export interface ClusterInfo {
  clusterId: string;
  nodeId: string;
  leaderId: string;
  leaderAddress: string;
  term: Int64;
  commitIndex: Int64;
  appliedIndex: Int64;
  members: Member[];
}

export interface TopicSettings {
  maxAttempts: number;
  defaultLeaseMs: Int64;
  deadLetterTopic: string;
  expiryAction: string;
  timeBucketMs: Int64;
  dedupWindowMs: Int64;
  ordering: string;
  maxLatenessMs: Int64;
  deadlineAction: string;
  paused: boolean;
}

export interface GroupSettings {
  maxDeliveriesPerSecond: number;
  burst: number;
  maxInFlight: number;
  ordering: string;
  paused: boolean;
  /** Set for a push group: where and how the leader POSTs its messages. */
  push: PushSettings | null;
}

export interface PushSettings {
  endpoint: string;
  timeoutMs: number;
  concurrency: number;
  secretFile: string;
  caFile: string;
}

/** What the current leader sent for a push group since it became leader. */
export interface PushStats {
  /** By how they ended: `2xx`..`5xx`, `timeout`, `error`. */
  requests: Record<string, Int64>;
  retries: Int64;
  deadLetters: Int64;
  /** Why it sends nothing now: a file it needs cannot be read; '' (or absent) when it can. */
  blocked?: string;
}

export interface Topic {
  name: string;
  settings: TopicSettings;
  groups: string[];
  createdAtMs: Int64;
  deleting: boolean;
}

export interface GroupStats {
  group: string;
  pending: Int64;
  inFlight: Int64;
  deadLettered: Int64;
  nextDueMs: Int64;
  settings: GroupSettings | null;
  paused: boolean;
  push: PushStats | null;
}

export interface TopicStats {
  topic: string;
  groups: GroupStats[];
}

export interface MessageInfo {
  id: Int64;
  topic: string;
  payload: string;
  headers: Record<string, string>;
  key: string;
  enqueuedAtMs: Int64;
  dueAtMs: Int64;
  expireAtMs: Int64;
  orderingKey: string;
  deliverBeforeMs: Int64;
}

export interface GroupState {
  group: string;
  state: string;
  dueAtMs: Int64;
  attempt: number;
}

export interface GetMessageResponse {
  message: MessageInfo;
  groups: GroupState[];
}

export interface ListedMessage {
  message: MessageInfo;
  state: string;
  dueAtMs: Int64;
  attempt: number;
}

export interface ListMessagesResponse {
  messages: ListedMessage[];
  nextPageToken: string;
}

export interface RedriveResponse {
  results: { id: Int64; status: string; newId: Int64 }[];
  nextPageToken: string;
}

export interface Schedule {
  definition: { topic: string; name: string; spec: string; timeZone: string };
  paused: boolean;
  fired: Int64;
  skipped: Int64;
  lastFiredMs: Int64;
  nextFireMs: Int64[];
  broken: string;
}

/** `MESSAGE_STATE_IN_FLIGHT` -> `in flight`: an enum name without its prefix, for people. */
export function enumText(name: string, prefix: string): string {
  return name.startsWith(prefix) ? name.slice(prefix.length).toLowerCase().replaceAll('_', ' ') : name;
}

/** An int64 time or count as a number: safe for epoch ms and for any count a page shows. */
export const num = (v: Int64 | number | undefined): number => Number(v ?? 0);
