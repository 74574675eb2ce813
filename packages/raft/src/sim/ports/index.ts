// Simulated ports of the node driver (ports.ts), for simulations that run
// RaftNode on virtual time: the Raft simulator's disk (a simulated file system
// under the shipped LogStore, hard-state and address-book files, with unsynced
// writes lost or torn at a crash, plus the simulated snapshot file), network
// (loss, duplication, delay, cuts), plus the scheduler whose event queue the
// nodes' clocks (VirtualClock of @fermata/base) set their timers on.
export { EventQueue, type SimEvent } from '../event-queue.js';
export { Prng } from '../prng.js';
export { SimDisk } from '../sim-disk.js';
export { type Endpoint, type Faults, SimNetwork, SimTransport } from '../sim-network.js';
export { openSimFiles, type SimFileOptions, SimIncoming, SimSnapshotStorage } from '../sim-storage.js';
export { SimScheduler } from './sim-scheduler.js';
