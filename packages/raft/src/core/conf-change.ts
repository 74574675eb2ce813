import type { ConfChange, ConfState, NodeId } from '../types.js';
import { InvalidConfChangeError } from './errors.js';

const TYPE_CODES = { 'add-learner': 1, promote: 2, remove: 3 } as const;
const CODE_TYPES: Record<number, ConfChange['type']> = { 1: 'add-learner', 2: 'promote', 3: 'remove' };
const FORMAT_VERSION = 1;

/**
 * Entry data of a `conf-change` entry: [version u8][type u8][node length u16 BE][node utf8]
 * [has context u8][context length u32 BE][context].
 */
export function encodeConfChange(change: ConfChange): Uint8Array {
  const node = new TextEncoder().encode(change.node);
  const context = change.context;
  const size = 4 + node.length + 1 + (context ? 4 + context.length : 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out[0] = FORMAT_VERSION;
  out[1] = TYPE_CODES[change.type];
  view.setUint16(2, node.length);
  out.set(node, 4);
  let at = 4 + node.length;
  out[at++] = context ? 1 : 0;
  if (context) {
    view.setUint32(at, context.length);
    out.set(context, at + 4);
  }
  return out;
}

export function decodeConfChange(data: Uint8Array): ConfChange {
  const fail = (why: string): never => {
    throw new InvalidConfChangeError(`malformed conf-change entry (${data.length} bytes): ${why}`);
  };
  if (data.length < 5) fail('too short');
  if (data[0] !== FORMAT_VERSION) fail(`unknown version ${data[0]}`);
  const type = CODE_TYPES[data[1] ?? 0] ?? fail(`unknown type ${data[1]}`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const nodeLength = view.getUint16(2);
  if (data.length < 5 + nodeLength) fail('node id truncated');
  const node = new TextDecoder().decode(data.subarray(4, 4 + nodeLength));
  let at = 4 + nodeLength;
  if (data[at++] !== 1) return { type, node };
  if (data.length < at + 4) fail('context length truncated');
  const contextLength = view.getUint32(at);
  if (data.length !== at + 4 + contextLength) fail('context length mismatch');
  return { type, node, context: data.slice(at + 4, at + 4 + contextLength) };
}

/** Throws InvalidConfChangeError unless `change` can be applied to `conf`. */
export function validateConfChange(conf: ConfState, change: ConfChange): void {
  const isVoter = conf.voters.includes(change.node);
  const isLearner = conf.learners.includes(change.node);
  if (change.node === '') throw new InvalidConfChangeError('conf change names no node');
  switch (change.type) {
    case 'add-learner':
      if (isVoter || isLearner) throw new InvalidConfChangeError(`${change.node} is already a member`);
      return;
    case 'promote':
      if (!isLearner) throw new InvalidConfChangeError(`${change.node} is not a learner`);
      return;
    case 'remove':
      if (!isVoter && !isLearner) throw new InvalidConfChangeError(`${change.node} is not a member`);
      if (isVoter && conf.voters.length === 1)
        throw new InvalidConfChangeError('cannot remove the last voter');
      return;
  }
}

/** The configuration after `change`. Lenient: a change that does not fit leaves the node where it fits. */
export function applyConfChange(conf: ConfState, change: ConfChange): ConfState {
  const without = (list: readonly NodeId[]) => list.filter((n) => n !== change.node);
  switch (change.type) {
    case 'add-learner':
      if (conf.voters.includes(change.node)) return conf;
      return { voters: conf.voters, learners: [...without(conf.learners), change.node] };
    case 'promote':
      return { voters: [...without(conf.voters), change.node], learners: without(conf.learners) };
    case 'remove':
      return { voters: without(conf.voters), learners: without(conf.learners) };
  }
}

export function isEmptyConf(conf: ConfState): boolean {
  return conf.voters.length === 0 && conf.learners.length === 0;
}
