import { describe, expect, it } from 'vitest';
import { validateClientHeaders, validateClientMessages } from '../src/state/commands/client-headers.js';

describe('client headers', () => {
  it('names are HTTP tokens, values HTTP field values; fermata-* names are the server’s', () => {
    const ok = (h: Record<string, string>) => () => validateClientHeaders(h, 'messages[0].headers');
    expect(
      ok({ 'content-type': 'application/json', traceparent: '00-ab-cd-01', 'x_a.b~c': 'é ü\ttab' }),
    ).not.toThrow();
    for (const bad of <Record<string, string>[]>[
      { 'a b': 'v' },
      { 'a:b': 'v' },
      { 'a\r\nb': 'v' },
      { 'a\u0000': 'v' },
      { ünï: 'v' },
      { '': 'v' },
      { a: 'x\ry' },
      { a: 'x\ny' },
      { a: 'x\u0000' },
      { a: 'x\u007f' },
      { 'fermata-dead-letter-reason': 'x' },
      { 'FERMATA-SCHEDULE': 'x' },
      { 'Fermata-x': 'x' },
    ]) {
      expect(ok(bad), JSON.stringify(bad)).toThrow(/^messages\[0\]\.headers: /);
    }
    expect(ok({ fermata: 'x', fermata_x: 'y', 'x-fermata-y': 'z' })).not.toThrow();
  });

  it('a publish names the message whose headers are refused', () => {
    expect(() =>
      validateClientMessages([
        { topic: 't', payload: new Uint8Array(0), headers: { a: 'b' } },
        { topic: 't', payload: new Uint8Array(0), headers: { 'fermata-x': 'b' } },
      ]),
    ).toThrow(/^messages\[1\]\.headers: header name "fermata-x" starts with "fermata-"/);
  });
});
