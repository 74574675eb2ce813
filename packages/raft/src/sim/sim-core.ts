import { RaftCore } from '../core/raft-core.js';
import type { Entry } from '../types.js';

/** RaftCore with read access to its log and vote, for the simulator's invariant checker. */
export class SimRaftCore extends RaftCore {
  firstIndex(): number {
    return this.log.firstIndex();
  }

  lastIndex(): number {
    return this.log.lastIndex();
  }

  termAt(index: number): number | undefined {
    return this.log.term(index);
  }

  entryAt(index: number): Entry {
    return this.log.entryAt(index);
  }
}
