/**
 * The node's peer settings do not fit (a cluster secret of the wrong length,
 * TLS without a CA to verify peers, a peer address that is not host:port).
 * Raised when the transport is set up, before the node serves; the message
 * names the setting.
 */
export class PeerConfigError extends Error {
  override readonly name = 'PeerConfigError';
}
