/**
 * Publish request records: a request's answer under its idempotency key until
 * its window ends, with a window entry the janitor's purge finds it by. The
 * in-memory request filter answers "no record" without a read for keys never
 * applied (request-filter.ts).
 */
import type { ReadView } from '@fermata/storage';
import { decodeRequestRec, encodeRequestRec } from '../codec/request.js';
import { decodeUtf8, EMPTY, NS, requestSuffix, requestWindowSuffix } from '../model/layout.js';
import type { RequestRec } from '../model/records.js';
import type { RequestFilter } from './request-filter.js';
import { dueRows } from './time-index.js';
import type { Txn } from './txn.js';

export class RequestStore {
  constructor(
    private readonly txn: Txn,
    private readonly filter: RequestFilter,
  ) {}

  /** False only when the store holds no request record under the key: no read needed. */
  mayHave(idempotencyKey: string): boolean {
    return this.filter.mayHave(idempotencyKey);
  }

  /** The storage keys `get` of these idempotency keys will read, for one parallel prefetch. */
  reads(idempotencyKeys: readonly string[]): Uint8Array[] {
    return idempotencyKeys.map((k) => NS.requests.key(requestSuffix(k)));
  }

  async get(idempotencyKey: string): Promise<RequestRec | undefined> {
    const raw = await this.txn.get(NS.requests.key(requestSuffix(idempotencyKey)));
    return raw ? decodeRequestRec(raw) : undefined;
  }

  /** Remembers a publish request's answer until its window ends (a janitor purge removes it then). */
  put(idempotencyKey: string, rec: RequestRec): void {
    this.txn.put(NS.requests.key(requestSuffix(idempotencyKey)), encodeRequestRec(rec));
    this.txn.put(NS.requestWindow.key(requestWindowSuffix(rec.windowEndMs, idempotencyKey)), EMPTY);
    this.filter.add(idempotencyKey, rec.windowEndMs);
    this.txn.onRollback(() => this.filter.forgotten(rec.windowEndMs));
  }

  forget(idempotencyKey: string, rec: RequestRec): void {
    this.txn.del(NS.requests.key(requestSuffix(idempotencyKey)));
    this.txn.del(NS.requestWindow.key(requestWindowSuffix(rec.windowEndMs, idempotencyKey)));
    this.filter.forgotten(rec.windowEndMs);
    this.txn.onRollback(() => this.filter.add(idempotencyKey, rec.windowEndMs));
  }
}

/** Idempotency keys whose dedup window ended by nowMs, in window order, at most `limit` (from a read view). */
export function dueRequestWindows(view: ReadView, nowMs: number, limit: number): Promise<string[]> {
  return dueRows(view, NS.requestWindow, nowMs, limit, (_windowEndMs, rest) => decodeUtf8(rest));
}
