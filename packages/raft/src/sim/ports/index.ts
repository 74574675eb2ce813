// Simulated ports of the node driver (ports.ts), for simulations that run
// RaftNode on virtual time: the Raft simulator's disk (loses unsynced writes,
// tears the write in progress), network (loss, duplication, delay, cuts) and
// storage ports, plus a scheduler and per-node clocks with the one-shot
// timers the broker's leader layer uses.
export { EventQueue, type SimEvent } from '../event-queue.js';
export { Prng } from '../prng.js';
export { SimDisk } from '../sim-disk.js';
export { type Endpoint, type Faults, SimNetwork, SimTransport } from '../sim-network.js';
export {
  SimIncoming,
  SimLogStorage,
  SimSmallFile,
  SimSnapshotStorage,
  SimStableStorage,
} from '../sim-storage.js';
export { SimClock, SimScheduler } from './sim-scheduler.js';
