/**
 * What the record codecs share: the one writer of the hand-written codecs
 * (each encode runs to completion before the next) and the conversions of
 * stored times, which are far below 2^53.
 */
import { int64FromSafe, toSafeNumber } from '@fermata/protocol';
import { WireWriter } from './wire.js';

export const writer = new WireWriter();
export const i64 = int64FromSafe;
export const n64 = (v: Parameters<typeof toSafeNumber>[0]): number => toSafeNumber(v, 'stored time');
