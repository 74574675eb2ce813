import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseTokenFile, TokenFileError, TokenTable } from '../src/server/auth.js';
import { TokenLimits } from '../src/server/token-limits.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const table = new TokenTable(
  parseTokenFile(
    `tokens:
  - name: hog
    sha256: ${sha('hog')}
    publish: ["*"]
    limits: { publishPerSecond: 100, streams: 2 }
  - name: plain
    sha256: ${sha('plain')}
    publish: ["*"]
`,
    'tokens.yaml',
  ),
);

describe('per-token limits', () => {
  it('a token file may give a token its own limits; unknown or negative ones are refused naming them', () => {
    expect(table.principalByName('hog')?.spec.limits).toEqual({ publishPerSecond: 100, streams: 2 });
    expect(() =>
      parseTokenFile(`tokens:\n  - name: x\n    sha256: ${sha('x')}\n    limits: { burst: 3 }\n`, 'f'),
    ).toThrow(/f: tokens\[0\]\.limits \("x"\): unknown limit "burst"/);
    expect(() =>
      parseTokenFile(`tokens:\n  - name: x\n    sha256: ${sha('x')}\n    limits: { streams: -1 }\n`, 'f'),
    ).toThrow(TokenFileError);
  });

  it('publish rate: a bucket of one second per token, refused past it naming the token and the limit', () => {
    let now = 0;
    const limits = new TokenLimits(
      { schedules: 5, publishPerSecond: 1_000, streams: 10 },
      () => table,
      () => now,
    );
    expect(limits.of('hog')).toEqual({ schedules: 5, publishPerSecond: 100, streams: 2 });
    expect(limits.of('plain')).toEqual({ schedules: 5, publishPerSecond: 1_000, streams: 10 });
    limits.takePublish('hog', 60);
    limits.takePublish('hog', 40);
    expect(() => limits.takePublish('hog', 1)).toThrow(
      'messages: token "hog" publishes past its limit publishPerSecondPerToken = 100 messages a second; retry later',
    );
    // Another token is not touched by it.
    limits.takePublish('plain', 1_000);
    now = 500; // half a second refills half
    limits.takePublish('hog', 50);
    expect(() => limits.takePublish('hog', 1)).toThrow(/publishPerSecondPerToken/);
  });

  it('streams: at most the token’s limit open at once; a closed one gives its place back', () => {
    const limits = new TokenLimits({ schedules: 0, publishPerSecond: 0, streams: 10 }, () => table);
    const a = limits.openStream('hog');
    const b = limits.openStream('hog');
    expect(() => limits.openStream('hog')).toThrow(
      'subscribe: token "hog" has 2 consume streams open on this node, its limit maxStreamsPerToken = 2',
    );
    a();
    a(); // released once only
    const c = limits.openStream('hog');
    expect(() => limits.openStream('hog')).toThrow(/maxStreamsPerToken/);
    b();
    c();
    // No token (authentication off): no limit.
    for (let i = 0; i < 50; i++) limits.openStream('');
  });
});
