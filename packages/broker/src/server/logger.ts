/**
 * The server's logger: pino JSON lines carrying the node id on every line and
 * the node's current Raft term and role, which change while the process runs.
 */
import { type DestinationStream, type Logger, pino } from 'pino';
import type { LogLevel } from './config-schema.js';

export type { Logger } from 'pino';

/** What every line says about the node's place in the cluster at the moment it is written. */
export interface RaftLogState {
  readonly term: number;
  /** e.g. 'follower', 'candidate', 'leader' (the Raft `Role`), 'starting', 'stopping'. */
  readonly role: string;
}

export interface ServerLogger {
  /** The root logger; `logger.child({component: 'dispatcher'})` children carry the same fields. */
  readonly logger: Logger;
  /** Changes the term and role written on every later line of this logger and its children. */
  setRaftState(state: RaftLogState): void;
  readonly raftState: RaftLogState;
}

export interface ServerLoggerOptions {
  nodeId: string;
  level: LogLevel;
  /** Default: stdout (synchronous, so nothing is lost on exit). */
  destination?: DestinationStream;
}

export function createServerLogger(options: ServerLoggerOptions): ServerLogger {
  let state: RaftLogState = { term: 0, role: 'starting' };
  const logger = pino(
    {
      level: options.level,
      base: { nodeId: options.nodeId, pid: process.pid },
      // One object per line read at write time: a term or role change shows on the next line.
      mixin: () => ({ term: state.term, role: state.role }),
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  return {
    logger,
    setRaftState(next) {
      state = { term: next.term, role: next.role };
    },
    get raftState() {
      return state;
    },
  };
}
