/** A recurring schedule as plain data (schedules.proto's ScheduleDefinition and ScheduleRecord). */
export type CatchUpPolicy = 'none' | 'latest' | 'all';
export type DstPolicy = 'once' | 'both';

export interface ScheduleDef {
  readonly topic: string;
  readonly name: string;
  readonly spec: string;
  /** IANA name; '' = UTC. */
  readonly timeZone: string;
  readonly payload: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  /** '' = no key. */
  readonly keyTemplate: string;
  /** 0 = unbounded. */
  readonly startAtMs: number;
  readonly endAtMs: number;
  readonly jitterMs: number;
  readonly catchUp: CatchUpPolicy;
  readonly dstPolicy: DstPolicy;
  /** 0 = limits.defaultMisfireThresholdMs. */
  readonly misfireThresholdMs: number;
  /** As the client asked on create (the record's `paused` is the state). */
  readonly paused: boolean;
}

export interface ScheduleRec {
  readonly def: ScheduleDef;
  readonly paused: boolean;
  /** Occurrences up to this instant are materialised or skipped. */
  readonly cursorMs: number;
  readonly generation: number;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly fired: number;
  readonly skipped: number;
  readonly lastFiredMs: number;
  /** The token that created it ('' = none); its schedules count against its limit. */
  readonly owner?: string;
}

/** One schedule's share of a fire command (schedules.proto ScheduleFire). */
export interface ScheduleFire {
  readonly topic: string;
  readonly name: string;
  readonly generation: number;
  readonly afterMs: number;
  /** 0 = none skipped. */
  readonly skipToMs: number;
  readonly skipped: number;
  readonly occurrences: readonly number[];
}

/** Headers every occurrence's message carries. */
export const SCHEDULE_HEADER = 'fermata-schedule';
export const OCCURRENCE_HEADER = 'fermata-occurrence-ms';
