/**
 * A group's own settings (records.proto GroupSettings) and how they combine
 * with its topic's: the delivery controls a group can set (rate and
 * in-flight limits, ordering, pause). The conversion of an ordering to and
 * from the protocol lives here, beside the type, for the commands and the
 * codecs alike. What combines them with a topic's settings is in records.ts.
 */
import { type pb, v1 } from '@fermata/protocol';

/** How due messages are ordered: 'key' = one leased at a time per ordering key and group. */
export type Ordering = 'none' | 'key';

/**
 * A group's own settings (records.proto GroupSettings): zero values mean no
 * limit, the topic's ordering, not paused (`NO_GROUP_SETTINGS`).
 */
export interface GroupSettings {
  /** 0 = unlimited. */
  readonly maxDeliveriesPerSecond: number;
  /** The token bucket's size; 0 = the rate (at least 1). Set only with a rate. */
  readonly burst: number;
  /** 0 = unlimited. */
  readonly maxInFlight: number;
  /** Undefined = the topic's. */
  readonly ordering: Ordering | undefined;
  readonly paused: boolean;
  /** Set: a push group (the leader POSTs its messages to an endpoint). */
  readonly push?: PushSettings;
}

/** Where and how a push group's messages are POSTed (admin.proto PushSettings), defaults resolved. */
export interface PushSettings {
  readonly endpoint: string;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly backoffInitialMs: number;
  readonly backoffMultiplier: number;
  readonly backoffMaxMs: number;
  /** Added to every request, by name (as given). */
  readonly headers: Readonly<Record<string, string>>;
  /** Path of the signing secret on every node; '' = unsigned. */
  readonly secretFile: string;
  /** Path of a PEM CA bundle on every node; '' = the system's CAs. */
  readonly caFile: string;
}

export const PUSH_DEFAULTS = Object.freeze({
  timeoutMs: 10_000,
  concurrency: 8,
  backoffInitialMs: 1_000,
  backoffMultiplier: 2,
  backoffMaxMs: 300_000,
});

/** Every field present: 0 or '' where `p` has none (on the wire and in a command's input, "the default"). */
function filledPush(p: { [K in keyof PushSettings]?: PushSettings[K] | null }): PushSettings {
  return {
    endpoint: p.endpoint ?? '',
    timeoutMs: p.timeoutMs ?? 0,
    concurrency: p.concurrency ?? 0,
    backoffInitialMs: p.backoffInitialMs ?? 0,
    backoffMultiplier: p.backoffMultiplier ?? 0,
    backoffMaxMs: p.backoffMaxMs ?? 0,
    headers: { ...(p.headers ?? {}) },
    secretFile: p.secretFile ?? '',
    caFile: p.caFile ?? '',
  };
}

/**
 * Stored resolved (every default filled), so a later change of a default
 * changes no group; a command's input may leave fields out (zero).
 */
export function encodePush(p: Partial<PushSettings>): pb.PushSettings.$Properties {
  return filledPush(p);
}

export function decodePush(p: pb.PushSettings.$Properties): PushSettings {
  return { ...filledPush(p), headers: sortedHeaders(p.headers ?? {}) };
}

/** Headers in name order: a map's order on the wire is not its meaning, and apply must be deterministic. */
export function sortedHeaders(h: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(h).sort()) out[k] = h[k] ?? '';
  return out;
}

export const NO_GROUP_SETTINGS: GroupSettings = Object.freeze({
  maxDeliveriesPerSecond: 0,
  burst: 0,
  maxInFlight: 0,
  ordering: undefined,
  paused: false,
});

/** Whether `s` sets nothing (a topic record keeps no entry for such a group). */
export function groupSettingsUnset(s: GroupSettings): boolean {
  return (
    s.maxDeliveriesPerSecond === 0 &&
    s.burst === 0 &&
    s.maxInFlight === 0 &&
    s.ordering === undefined &&
    !s.paused &&
    s.push === undefined
  );
}

/** The protocol's ordering; undefined = ORDERING_UNSPECIFIED. */
export function orderingToProto(o: Ordering | undefined): pb.Ordering {
  return o === 'key'
    ? v1.Ordering.ORDERING_KEY
    : o === 'none'
      ? v1.Ordering.ORDERING_NONE
      : v1.Ordering.ORDERING_UNSPECIFIED;
}

/** Undefined for ORDERING_UNSPECIFIED (and values this version does not know). */
export function orderingFromProto(o: number | null | undefined): Ordering | undefined {
  return o === v1.Ordering.ORDERING_KEY ? 'key' : o === v1.Ordering.ORDERING_NONE ? 'none' : undefined;
}
