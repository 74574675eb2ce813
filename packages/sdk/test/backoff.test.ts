import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_NACK_BACKOFF, resolveBackoff } from '../src/backoff.js';
import { channelCredentials } from '../src/connection.js';

describe('backoff', () => {
  const policy = { initialMs: 100, multiplier: 2, maxMs: 1_000, jitter: 0 };

  it('starts at initialMs and grows by the multiplier per attempt', () => {
    expect([1, 2, 3, 4].map((a) => backoffDelayMs(policy, a, 0.5))).toEqual([100, 200, 400, 800]);
  });

  it('never waits longer than maxMs, however many attempts', () => {
    expect(backoffDelayMs(policy, 5, 0)).toBe(1_000);
    expect(backoffDelayMs(policy, 10_000, 0)).toBe(1_000);
  });

  it('with jitter j draws the wait from [base·(1-j), base]', () => {
    const jittered = { ...policy, jitter: 0.5 };
    expect(backoffDelayMs(jittered, 2, 0)).toBe(200);
    expect(backoffDelayMs(jittered, 2, 0.999_999)).toBe(100);
    expect(backoffDelayMs(jittered, 2, 0.5)).toBe(150);
  });

  it('completes a partial policy from the defaults and refuses bad fields by name', () => {
    expect(resolveBackoff({ initialMs: 10 }, DEFAULT_NACK_BACKOFF)).toEqual({
      ...DEFAULT_NACK_BACKOFF,
      initialMs: 10,
    });
    expect(() => resolveBackoff({ multiplier: 0.5 }, DEFAULT_NACK_BACKOFF)).toThrow(/multiplier/);
    expect(() => resolveBackoff({ initialMs: 10, maxMs: 5 }, DEFAULT_NACK_BACKOFF)).toThrow(/maxMs/);
    expect(() => resolveBackoff({ jitter: 2 }, DEFAULT_NACK_BACKOFF)).toThrow(/jitter/);
    expect(() => backoffDelayMs(policy, 0, 0)).toThrow(/attempt/);
  });
});

describe('channel credentials', () => {
  it('are plaintext without tls, TLS with tls: true or certificates', () => {
    expect(channelCredentials(undefined)._isSecure()).toBe(false);
    expect(channelCredentials(true)._isSecure()).toBe(true);
    expect(() => channelCredentials({ cert: 'x' })).toThrow(/together/);
  });
});
