/**
 * The cluster secret: a token every member sends in the metadata of each peer
 * call and every member checks before it reads a byte of the stream. It
 * authenticates "a member of this cluster" (all members share it), so a peer
 * port without TLS is not open to whoever can reach it.
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { PeerConfigError } from './errors.js';

/** The metadata key that carries the secret. */
export const PEER_SECRET_METADATA = 'fermata-peer-secret';
/** Shortest secret accepted: 16 bytes of entropy as hex or base64 is at least this long. */
export const MIN_PEER_SECRET_LENGTH = 16;
/** Longest secret accepted (metadata stays small). */
export const MAX_PEER_SECRET_LENGTH = 1024;

/** Throws unless `secret` has an accepted length. */
export function assertPeerSecret(secret: string, field: string): void {
  if (secret.length < MIN_PEER_SECRET_LENGTH || secret.length > MAX_PEER_SECRET_LENGTH) {
    throw new PeerConfigError(
      `${field}: the cluster secret must be ${MIN_PEER_SECRET_LENGTH} to ${MAX_PEER_SECRET_LENGTH} characters (MIN_PEER_SECRET_LENGTH, MAX_PEER_SECRET_LENGTH), got ${secret.length}`,
    );
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Checks the secret of incoming calls, in constant time. */
export class PeerSecretCheck {
  private readonly expected: Buffer;

  constructor(secret: string) {
    assertPeerSecret(secret, 'peer secret');
    this.expected = digest(secret);
  }

  /** Why a call with this metadata is refused, or undefined when it carries the secret. */
  problem(metadata: grpc.Metadata): string | undefined {
    return this.problemIn(metadata.get(PEER_SECRET_METADATA));
  }

  /** The same for the header's values (HTTP/2 request headers: undefined, one, or several). */
  problemIn(header: string | readonly unknown[] | undefined): string | undefined {
    const values = header === undefined ? [] : typeof header === 'string' ? [header] : header;
    if (values.length === 0) return 'peer call carries no cluster secret';
    const given = values[0];
    if (values.length > 1 || typeof given !== 'string') return 'peer call carries a malformed cluster secret';
    return timingSafeEqual(digest(given), this.expected)
      ? undefined
      : 'peer call carries a wrong cluster secret';
  }
}

/** A client interceptor that adds the secret to every call of a peer channel. */
export function peerSecretInterceptor(secret: string): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set(PEER_SECRET_METADATA, secret);
        next(metadata, listener);
      },
    });
}
