/** gRPC transport between Raft peers (`fermata.v1.Raft`). */
export { MalformedMessageError, messageFromWire, messageToWire } from './codec.js';
export { type Logger, silentLogger, stderrLogger } from './logger.js';
export {
  PeerTransport,
  type PeerTransportOptions,
  TRANSPORT_DEFAULTS,
  type TransportHandler,
  type TransportStats,
} from './peer-transport.js';
