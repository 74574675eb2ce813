/**
 * A consumer that speaks the Consume protocol itself over grpc-js (the
 * generated client of @fermata/protocol), as a client in another language
 * would: it does not hold deliveries sent ahead (Subscribe.holds_ahead unset),
 * so the leader sends each delivery at its due time, and it acks every batch
 * on the stream as it arrives. Its lateness is the broker's own, without the
 * SDK's hold-ahead.
 */
import { makeClient, numberAsInt64, type pb } from '@fermata/protocol';

export interface GrpcConsumer {
  /** Resolves once the leader answered `subscribed`. */
  readonly subscribed: Promise<void>;
  close(): void;
}

/**
 * Subscribes on `address` (the leader's client API). `onDelivery` gets each
 * delivery with this machine's clock at the arrival of its batch.
 */
export function grpcConsumer(
  address: string,
  subscribe: pb.ISubscribe,
  onDelivery: (d: pb.IDelivery, receivedAtMs: number) => void,
): GrpcConsumer {
  const client = makeClient('Broker', address);
  const call = client.consume();
  let requestId = 0;
  let ready: () => void = () => undefined;
  let failed: (e: unknown) => void = () => undefined;
  const subscribed = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  let closing = false;
  call.on('data', (res: pb.ConsumeResponse) => {
    if (res.subscribed) ready();
    const batch = res.deliveries?.deliveries;
    if (!batch || batch.length === 0) return;
    const at = Date.now();
    for (const d of batch) onDelivery(d, at);
    const tags = batch.flatMap((d) => (d.tag ? [d.tag] : []));
    call.write({ ack: { tags, requestId: numberAsInt64(++requestId) } });
  });
  call.on('error', (e: unknown) => {
    if (!closing) failed(e);
  });
  call.write({ subscribe });
  return {
    subscribed,
    close() {
      closing = true;
      call.cancel();
      client.close();
    },
  };
}
