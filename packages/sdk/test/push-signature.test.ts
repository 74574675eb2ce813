// verifyPushSignature: what a receiver of push requests accepts (docs/api.md, "Push groups").
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyPushSignature } from '../src/index.js';

const sign = (secret: string, t: number, body: string): string =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

describe('verifyPushSignature', () => {
  const now = 1_700_000_000_000;
  it('accepts the HMAC of the timestamp, a dot and the raw body, signed within the tolerance', () => {
    expect(verifyPushSignature('s', sign('s', now - 1_000, 'hi'), 'hi', { nowMs: now })).toBe(true);
    expect(
      verifyPushSignature(Buffer.from('s'), sign('s', now, 'hi'), Buffer.from('hi'), { nowMs: now }),
    ).toBe(true);
  });

  it('refuses another body, another secret, an old or future timestamp, and malformed headers', () => {
    const h = sign('s', now, 'hi');
    expect(verifyPushSignature('s', h, 'ho', { nowMs: now })).toBe(false);
    expect(verifyPushSignature('t', h, 'hi', { nowMs: now })).toBe(false);
    expect(verifyPushSignature('s', h, 'hi', { nowMs: now + 300_001 })).toBe(false);
    expect(verifyPushSignature('s', h, 'hi', { nowMs: now - 300_001 })).toBe(false);
    expect(verifyPushSignature('s', h, 'hi', { nowMs: now + 60_000, toleranceMs: 30_000 })).toBe(false);
    for (const bad of [undefined, '', 'v1=abc', `t=${now}`, `t=x,v1=${'0'.repeat(64)}`, `t=${now},v1=zz`]) {
      expect(verifyPushSignature('s', bad, 'hi', { nowMs: now }), String(bad)).toBe(false);
    }
  });

  it('accepts a header of several v1 values when one matches (a secret being rotated)', () => {
    const good = sign('s', now, 'hi');
    const other = sign('old', now, 'hi').split(',')[1];
    expect(verifyPushSignature('s', `${good},${other}`, 'hi', { nowMs: now })).toBe(true);
    expect(verifyPushSignature('s', `t=${now},${other}`, 'hi', { nowMs: now })).toBe(false);
  });
});
