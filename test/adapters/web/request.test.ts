/**
 * What the site reads from a request (language, query, page) and its rate limit: table-driven
 * cases, and a property for the 1 kB cut.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CLIENTS, rateLimiter } from '../../../adapters/web/rateLimit.js';
import { MAX_QUERY_BYTES, pageNumber, pickLocale, readHost, readQuery } from '../../../adapters/web/request.js';

describe('pickLocale', () => {
  it.each([
    [undefined, null, 'en', false],
    ['zh-CN,zh;q=0.9,en;q=0.8', null, 'zh-CN', false],
    ['fr-FR, de;q=0.9, zh-Hant-TW;q=0.8, en;q=0.7', null, 'zh-CN', false],
    ['en-GB;q=0.5, zh;q=0.9', null, 'zh-CN', false],
    ['fr, de', null, 'en', false],
    ['zh;q=0, en', null, 'en', false],
    ['*', null, 'en', false],
    ['zh-CN', 'en', 'en', true],
    ['en', 'zh-TW', 'zh-CN', true],
    ['zh-CN', 'klingon', 'zh-CN', false],
    ['garbage;;;q=x,,', null, 'en', false],
  ] as const)('Accept-Language %j with ?lang=%j → %s', (header, lang, locale, chosen) => {
    expect(pickLocale(header, lang)).toEqual({ locale, chosen });
  });
});

describe('readQuery', () => {
  it('keeps a query of 1 kB or less as typed (trimmed)', () => {
    expect(readQuery('  diffusion  ')).toEqual({ query: 'diffusion', cut: false });
    expect(readQuery(null)).toEqual({ query: '', cut: false });
    expect(readQuery('é'.repeat(512))).toEqual({ query: 'é'.repeat(512), cut: false });
  });

  it('cuts a longer one to at most 1 kB, never inside a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 300, maxLength: 2000 }), (text) => {
        const { query, cut } = readQuery(text);
        expect(Buffer.byteLength(query)).toBeLessThanOrEqual(MAX_QUERY_BYTES);
        expect(cut).toBe(Buffer.byteLength(text.trim()) > MAX_QUERY_BYTES);
        expect(text.trim().startsWith(query)).toBe(true);
        expect(query).not.toMatch(/[\uD800-\uDBFF]$/);
      }),
    );
  });
});

describe('pageNumber', () => {
  it.each([
    [null, 10, 1],
    ['3', 10, 3],
    ['0', 10, 1],
    ['-4', 10, 1],
    ['99', 10, 10],
    ['2.5', 10, 1],
    ['1e400', 10, 1],
    ['x', 10, 1],
  ] as const)('?page=%j of %d → %d', (raw, max, page) => {
    expect(pageNumber(raw, max)).toBe(page);
  });
});

describe('readHost', () => {
  it.each([
    ['papers.lab.example', true],
    ['papers.lab.example:8080', true],
    ['localhost:3000', true],
    ['127.0.0.1:3000', true],
    ['[::1]:3000', true],
    ['[2001:db8::7]', true],
    ['xn--fiqs8s.example', true],
    [`${'a'.repeat(63)}.example`, true],
    [undefined, false],
    ['', false],
    ['a:99999', false],
    ['a:0', false],
    ['a:', false],
    ['a..b', false],
    ['.a', false],
    ['-a.example', false],
    ['a-.example', false],
    [`${'a'.repeat(64)}.example`, false],
    [`${'abc.'.repeat(70)}example`, false],
    ['[::1', false],
    ['[::g]', false],
    ['[1.2.3.4]', false],
    ['user@a.example', false],
    ['a.example/path', false],
    ['a.example"><script>', false],
    ['a b', false],
    ['中文.example', false],
  ] as const)('%j → %s', (header, valid) => {
    expect(readHost(header)).toBe(valid ? header : undefined);
  });
});

describe('rateLimiter', () => {
  it('lets 20 requests a second through per address, then says how long to wait', () => {
    const limiter = rateLimiter(20);
    const t = 5_000;
    for (let i = 0; i < 20; i++) expect(limiter.take('a', t)).toBe(0);
    expect(limiter.take('a', t)).toBe(1);
    expect(limiter.take('b', t)).toBe(0);
    // Tokens come back continuously: one every 50 ms.
    expect(limiter.take('a', t + 49)).toBe(1);
    expect(limiter.take('a', t + 100)).toBe(0);
    expect(limiter.take('a', t + 1100)).toBe(0);
  });

  it('holds a steady 20 a second, whatever the spacing', () => {
    const limiter = rateLimiter(20);
    let allowed = 0;
    for (let ms = 0; ms < 10_000; ms += 10) if (limiter.take('steady', ms) === 0) allowed++;
    // A full bucket at the start (20) and 20 a second for 10 s.
    expect(allowed).toBeGreaterThanOrEqual(200);
    expect(allowed).toBeLessThanOrEqual(221);
  });

  it('tracks at most MAX_CLIENTS addresses through 100,000 new ones in one millisecond, and still limits the one hammering', () => {
    const limiter = rateLimiter(20);
    const t = 1_000;
    expect(limiter.take('reader', t)).toBe(0);
    for (let i = 0; i < 20; i++) limiter.take('heavy', t);
    let largest = 0;
    let heavyAllowed = 0;
    for (let i = 0; i < 100_000; i++) {
      limiter.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, t);
      largest = Math.max(largest, limiter.size);
      // Still sending, so never the address quiet the longest: never evicted, never let through.
      if (i % 1000 === 0 && limiter.take('heavy', t) === 0) heavyAllowed++;
    }
    // Never more than the cap, and close to it: the cap is what is kept, not a fraction of it.
    expect(largest).toBeLessThanOrEqual(MAX_CLIENTS);
    expect(largest).toBeGreaterThan(MAX_CLIENTS - 10);
    expect(heavyAllowed).toBe(0);
    // The reader, quiet since, was forgotten: it comes back to a full bucket, never to a wait.
    for (let i = 0; i < 20; i++) expect(limiter.take('reader', t)).toBe(0);
    expect(limiter.size).toBeLessThanOrEqual(MAX_CLIENTS);
  });
});
