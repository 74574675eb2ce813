import { RaftCore, type RaftCoreOptions } from '../core/raft-core.js';
import type { Logger } from '../transport/logger.js';
import { NodeStartError } from './errors.js';
import { AddressBook } from './members.js';
import { NODE_DEFAULTS, type RaftDriverOptions } from './node-options.js';
import { storedTermProblem } from './peer-admission.js';
import type { NodePorts } from './ports.js';
import { splitHeader } from './snapshot-data.js';

/**
 * The restart path: reconciles the state machine with the log and the
 * snapshot file after a crash at any point, and builds the core from what is
 * durable (persistence contract, docs/design.md):
 *  - a snapshot file ahead of the log's snapshot meta finishes its install or record;
 *  - a state machine behind the log's snapshot is restored from the snapshot file;
 *  - commit = max(saved commit, applied index), at most the last index: what the
 *    state machine applied was committed; the core then also takes every
 *    conf-change entry followed by another in the log as committed, and raises
 *    a saved term below the log's last term to it.
 */
export async function recover(
  options: RaftDriverOptions,
  ports: NodePorts,
  log: Logger,
): Promise<{ core: RaftCore; book: AddressBook; applied: number }> {
  const { log: logStore, snapshots } = ports;
  ports.incoming.reset();
  // A removal the book recorded without its term (an older version) came from an entry of a term at most this.
  const termsSoFar = Math.max(ports.stable.get().term, logStore.term(logStore.lastIndex()) ?? 0);
  const book = new AddressBook(ports.addressBook, termsSoFar);
  for (const [id, addresses] of Object.entries(options.initialMembers)) {
    if (!book.get(id)) book.set(id, addresses);
  }
  if (!options.join && !(options.id in options.initialMembers)) {
    throw new NodeStartError(
      `node ${options.id} is not in initialMembers (${Object.keys(options.initialMembers).join(', ')})`,
    );
  }
  const sm = options.stateMachine;

  // An interrupted snapshot install or record: the snapshot file is ahead of the log's meta.
  const latest = await snapshots.latest();
  if (latest && latest.meta.index > logStore.snapshotMeta().index) {
    if (logStore.term(latest.meta.index) === latest.meta.term) await logStore.recordSnapshot(latest.meta);
    else await logStore.installSnapshot(latest.meta);
  }
  let applied = sm.appliedIndex();
  const logMeta = logStore.snapshotMeta();
  if (applied < logMeta.index) {
    // The store is behind the snapshot the log starts from (a restore was interrupted).
    const reader = await snapshots.read();
    if (!reader || reader.meta.index < logMeta.index) {
      throw new NodeStartError(
        `state machine applied index ${applied} is behind the log's snapshot ${logMeta.index} and no snapshot file covers it`,
      );
    }
    const { header, rest } = await splitHeader(reader.chunks);
    for (const [id, a] of Object.entries(header.members)) book.set(id, a);
    applied = await sm.restore(rest);
    await sm.flush();
    log.warn({ id: options.id, applied }, 'raft: state machine restored from the snapshot file at start-up');
  }
  if (applied > logStore.lastIndex()) {
    throw new NodeStartError(
      `state machine applied index ${applied} is beyond the log's last index ${logStore.lastIndex()}: the Raft log lost entries`,
    );
  }
  await book.save();
  const saved = ports.stable.get();
  const termProblem = storedTermProblem(saved.term, logStore.term(logStore.lastIndex()) ?? 0);
  if (termProblem?.fatal) throw new NodeStartError(`raft node ${options.id}: ${termProblem.message}`);
  if (termProblem) log.warn({ id: options.id, term: saved.term }, `raft: ${termProblem.message}`);
  const commit = Math.min(Math.max(saved.commit, applied), logStore.lastIndex());
  const coreOptions: RaftCoreOptions = {
    id: options.id,
    log: logStore,
    hardState: { ...saved, commit },
    applied,
    bootstrapVoters: options.join ? [] : Object.keys(options.initialMembers),
    ...(options.join ? { join: true } : {}),
    electionTicks: options.electionTicks ?? NODE_DEFAULTS.electionTicks,
    heartbeatTicks: options.heartbeatTicks ?? NODE_DEFAULTS.heartbeatTicks,
    random: ports.random,
    ...(options.maxUncommittedBytes !== undefined
      ? { maxUncommittedBytes: options.maxUncommittedBytes }
      : {}),
    ...(options.maxMsgBytes !== undefined ? { maxMsgBytes: options.maxMsgBytes } : {}),
    ...(options.maxInflight !== undefined ? { maxInflight: options.maxInflight } : {}),
  };
  const core = ports.makeCore ? ports.makeCore(coreOptions) : new RaftCore(coreOptions);
  return { core, book, applied };
}
