/** gRPC transport between Raft peers (`fermata.v1.Raft`). */
export type { Admission, RefusalReason, SenderIdentity } from './admission.js';
export { MalformedMessageError, messageFromWire, messageToWire } from './codec.js';
export { PeerConfigError } from './errors.js';
export { type Logger, silentLogger, stderrLogger } from './logger.js';
export {
  assertPeerSecret,
  MAX_PEER_SECRET_LENGTH,
  MIN_PEER_SECRET_LENGTH,
  PEER_SECRET_METADATA,
} from './peer-secret.js';
export {
  type PeerRefusal,
  PeerTransport,
  type PeerTransportOptions,
  TRANSPORT_DEFAULTS,
  type TransportHandler,
  type TransportStats,
} from './peer-transport.js';
