// Simulated ports of the node driver (ports.ts): a disk that loses unsynced
// writes and tears the last log write, a lossy partitionable network, and
// virtual time. Used by the broker's whole-cluster simulation.
export { EventQueue, type SimEvent } from '../event-queue.js';
export { Prng } from '../prng.js';
export { SimDisk, type SimDiskOptions } from './sim-disk.js';
export { SimNetwork, type SimNetworkOptions } from './sim-network.js';
export { SimClock, SimScheduler } from './sim-scheduler.js';
