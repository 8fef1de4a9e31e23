/**
 * The search site over HTTP, through the real handler, library, store and index: status codes
 * and headers, pages and their escaping of hostile papers and queries, the JSON API (the same
 * hit fields as `paperscout search --json`), the language, the 1 kB cut and the rate limit.
 */
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchXml } from '../../../adapters/web/api.js';
import { ASSETS } from '../../../adapters/web/assets.js';
import { messages } from '../../../src/i18n/index.js';
import { CONTENT_SECURITY_POLICY, createSite } from '../../../adapters/web/site.js';
import { hitsJson } from '../../../src/papers/hitJson.js';
import { expectOnlySiteMarkup, startTestSite, type SiteUnderTest } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

let site: SiteUnderTest;
/** Each request from its own address (X-Forwarded-For from a loopback peer): the rate limit is tested on its own. */
let client = 0;
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${site.origin}${path}`, { headers: { 'x-forwarded-for': `198.51.100.${client++ % 250}`, ...headers }, redirect: 'manual' });
const page = async (path: string, headers: Record<string, string> = {}) => {
  const res = await get(path, headers);
  return { res, text: await res.text() };
};

beforeAll(async () => {
  site = await startTestSite();
}, 60_000);
afterAll(() => site.close());

describe('pages', () => {
  it('serves the home page with the library size, the topics, the stylesheet, script and OpenSearch link, and safe headers', async () => {
    const { res, text } = await page('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(text).toContain(`Search ${site.app.library.size} papers by title, author or keyword`);
    expect(text).toContain(`<link rel="stylesheet" href="${ASSETS.css.path}">`);
    expect(text).toContain(`<script src="${ASSETS.js.path}" defer></script>`);
    expect(text).toContain('<link rel="search" type="application/opensearchdescription+xml" title="Paper Scout" href="/opensearch.xml">');
    expect(text).toMatch(/<a href="\/topic\/deep-learning\/[a-z-]+">/);
    expect(text).not.toMatch(/<script>|style="/);
  });

  it('serves the assets under hashed addresses, kept for a year', async () => {
    for (const asset of Object.values(ASSETS)) {
      const res = await get(asset.path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toBe(asset.contentType);
      expect(Buffer.from(await res.arrayBuffer()).equals(asset.body)).toBe(true);
    }
    expect(ASSETS.css.path).toMatch(/^\/assets\/site\.[0-9a-f]{12}\.css$/);
    expect((await get('/assets/site.000000000000.css')).status).toBe(404);
  });

  it('pages through results, 20 at a time, with the total and filter links', async () => {
    const first = await page('/search?q=lattice');
    expect(first.res.status).toBe(200);
    expect(first.text).toContain('Papers for “lattice”');
    expect(first.text).toContain('45 papers · page 1 of 3');
    expect(first.text.match(/<article class="card">/g)).toHaveLength(20);
    expect(first.text).toContain('<a rel="next" href="/search?q=lattice&amp;page=2">');
    expect(first.text).toContain('<a href="/search?q=author%3A%22Grace+Hopper%22">Grace Hopper</a>');
    expect(first.text).toContain('<a href="/search?q=venue%3AICLR">ICLR</a>');
    expect(first.text).toContain('<span aria-current="true">Best match first</span>');
    expect(first.text).toContain('<a href="/search?q=lattice+sort%3Anew">Newest first</a>');
    expect(first.text).toContain('<a href="/search?q=lattice+sort%3Acited">Most cited first</a>');
    expect(first.text).toContain('<mark>lattice</mark>');
    const third = await page('/search?q=lattice&page=3');
    expect(third.text).toContain('page 3 of 3');
    expect(third.text.match(/<article class="card">/g)).toHaveLength(5);
    expect(third.text).toContain('<ol class="results" start="41">');
    // A page past the last shows the last.
    expect((await page('/search?q=lattice&page=99')).text).toContain('page 3 of 3');
    const empty = await get('/search?q=%20');
    expect(empty.status).toBe(302);
    expect(empty.headers.get('location')).toBe('/');
  });

  it('says when nothing matches', async () => {
    const { res, text } = await page('/search?q=qwxzzyv');
    expect(res.status).toBe(200);
    expect(text).toContain('No papers found for “qwxzzyv”.');
  });

  it("serves a paper's page: every author, abstract, links, similar papers and BibTeX; 404 for an unknown id", async () => {
    const { res, text } = await page('/paper/arxiv%3A1706.03762');
    expect(res.status).toBe(200);
    expect(text).toContain('<h1>Attention Is All You Need</h1>');
    expect(text).toContain('>Illia Polosukhin</a>');
    expect(text).toContain('We propose the Transformer');
    expect(text).toContain('<a href="https://arxiv.org/pdf/1706.03762" rel="noopener noreferrer nofollow">PDF</a>');
    expect(text).toContain('<h2>Similar papers</h2>');
    expect(text).toMatch(/<pre class="bibtex">@inproceedings\{vaswani2017attention,/);
    const missing = await page('/paper/arxiv%3A0000.00000');
    expect(missing.res.status).toBe(404);
    expect(missing.text).toContain('<h1>Not found</h1><p>No paper with that id is in the library. Search for it by title instead.</p>');
  });

  it("serves a topic's papers newest first, paged; 404 for an unknown topic", async () => {
    const home = (await page('/')).text;
    const path = /<a href="(\/topic\/[^"]+)">[^<]+<\/a> <span class="n">([1-9][\d,]*)<\/span>/.exec(home);
    expect(path).not.toBeNull();
    const { res, text } = await page(path![1]!);
    expect(res.status).toBe(200);
    expect(text).toContain('Newest first');
    const years = [...text.matchAll(/<a href="\/search\?q=year%3A(\d{4})">/g)].map((m) => Number(m[1]));
    expect(years.length).toBeGreaterThan(0);
    expect(years).toEqual([...years].sort((a, b) => b - a));
    expect((await get('/topic/no-such/topic')).status).toBe(404);
    expect((await get('/nothing/here')).status).toBe(404);
  });

  it('answers only GET and HEAD', async () => {
    const res = await fetch(`${site.origin}/search?q=x`, { method: 'POST', headers: { 'x-forwarded-for': '198.51.100.251' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${site.origin}/`, { method: 'HEAD', headers: { 'x-forwarded-for': '198.51.100.252' } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('hostile papers and queries', () => {
  it('escape every title, author, venue, status, abstract and link of the results', async () => {
    for (const n of [1, 2]) {
      const { text } = await page(`/search?q=hostile&page=${n}`);
      expect(text).toMatch(/<article class="card">/);
      // Papers with more than 8 authors name 8 and "et al.", the names still links.
      if (n === 1) expect(text).toMatch(/<\/a> et al\.<\/p>/);
      expectOnlySiteMarkup(text);
    }
  });

  it("escape a hostile paper's own page and BibTeX", async () => {
    const hits = await site.app.library.search('hostile', { limit: 20 });
    expect(hits.hits.length).toBe(20);
    for (const hit of hits.hits) {
      const { res, text } = await page(`/paper/${encodeURIComponent(hit.id)}`);
      expect(res.status).toBe(200);
      expectOnlySiteMarkup(text);
    }
  });

  it('escape the query wherever it is shown: heading, box, links and the title', async () => {
    const query = '"><script>window.__xss=1</script><img src=x onerror=alert(1)> \' onfocus=\'x';
    const { text } = await page(`/search?q=${encodeURIComponent(query)}`);
    expectOnlySiteMarkup(text);
    expect(text).toContain('&quot;&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;');
  });

  it('cut a query over 1 kB, with a note', async () => {
    const long = `lattice ${'模型'.repeat(400)}`;
    expect(Buffer.byteLength(long)).toBeGreaterThan(1024);
    const { res, text } = await page(`/search?q=${encodeURIComponent(long)}`);
    expect(res.status).toBe(200);
    expect(text).toContain('The query was longer than 1,024 bytes: only its beginning was read.');
    const value = /<input id="q" name="q" type="search" value="([^"]*)"/.exec(text)![1]!;
    expect(Buffer.byteLength(value)).toBeLessThanOrEqual(1024);
    expect(value.startsWith('lattice 模型模型')).toBe(true);
  });
});

describe('language', () => {
  it('follows Accept-Language, with ?lang= over it, and reads Chinese queries through the glossary', async () => {
    const zh = await page('/', { 'accept-language': 'fr-FR;q=0.9, zh-TW;q=0.8, en;q=0.5' });
    expect(zh.text).toContain('<html lang="zh-CN">');
    expect(zh.text).toContain(`从 ${site.app.library.size} 篇学术成果中精准定位`);
    expect(zh.res.headers.get('vary')).toBe('Accept-Language');
    const en = await page('/?lang=en', { 'accept-language': 'zh-CN' });
    expect(en.text).toContain('<html lang="en">');
    // A chosen language stays on every link.
    const chosen = await page('/search?q=lattice&lang=zh-CN');
    expect(chosen.text).toContain('<a rel="next" href="/search?q=lattice&amp;page=2&amp;lang=zh-CN">');
    expect(chosen.text).toContain('<input type="hidden" name="lang" value="zh-CN">');
    const read = await page('/search?q=%E6%89%A9%E6%95%A3%E6%A8%A1%E5%9E%8B', { 'accept-language': 'zh-CN' });
    expect(read.text).toMatch(/扩散模型 → /);
    expect(read.text).toMatch(/Diffusion/);
  });
});

describe('citations', () => {
  it("shows a paper's count, and its references and citing papers in the library with theirs, most cited first, linking to all of them", async () => {
    const { text } = await page('/paper/arxiv%3A1706.03762');
    expect(text).toContain('<span class="cites">cited by 123,456</span>');
    expect(text).toContain('<h2>References in the library (6)</h2><ul class="similar"><li><a href="/paper/arxiv%3A1512.03385">Deep Residual Learning for Image Recognition</a> <span class="meta">CVPR 2016 · cited by 201k</span></li>');
    expect(text).toContain('<p class="more"><a href="/paper/arxiv%3A1706.03762/references">All 6 references in the library →</a></p>');
    expect(text).toContain('<h2>Cited by, in the library (27)</h2>');
    expect(text).toContain('<p class="more"><a href="/paper/arxiv%3A1706.03762/cited-by">All 27 papers in the library citing it →</a></p>');
    const citing = text.split('<h2>Cited by, in the library (27)</h2>')[1]!.split('</ul>')[0]!;
    expect([...citing.matchAll(/cited by (\d+)k</g)].map((m) => Number(m[1]))).toEqual([95, 60, 60, 60, 60]);
    expect(text.indexOf('References in the library')).toBeLessThan(text.indexOf('<h2>Similar papers</h2>'));
    expectOnlySiteMarkup(text);
    // A result card says the count compact.
    expect((await page('/search?q=attention+is+all+you+need')).text).toContain('<span class="cites">cited by 123k</span>');
  });

  it('says nothing of citations on the page of a paper without any', async () => {
    const { text } = await page('/paper/arxiv%3A2304.02643');
    expect(text).toContain('<h1>Segment Anything</h1>');
    expect(text).not.toMatch(/cited by|in the library/i);
  });

  it('pages through all the papers citing one, most cited first, as cards; and all its references', async () => {
    const first = await page('/paper/arxiv%3A1706.03762/cited-by');
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(first.text).toContain('<title>Cited by, in the library · Attention Is All You Need · Paper Scout</title>');
    expect(first.text).toContain('<h1>Cited by, in the library</h1>');
    expect(first.text).toContain('<p class="note"><a href="/paper/arxiv%3A1706.03762">Back to “Attention Is All You Need”</a></p>');
    expect(first.text).toContain('Most cited first · 27 papers · page 1 of 2');
    expect(first.text.match(/<article class="card">/g)).toHaveLength(20);
    expect(first.text).toContain('<a rel="next" href="/paper/arxiv%3A1706.03762/cited-by?page=2">');
    expectOnlySiteMarkup(first.text);
    const second = await page('/paper/arxiv%3A1706.03762/cited-by?page=2');
    expect(second.text).toContain('<ol class="results" start="21">');
    const counts = (t: string) => [...t.matchAll(/<span class="cites">cited by ([\d.]+)k<\/span>/g)].map((m) => Number(m[1]));
    expect(counts(second.text)).toEqual([60, 50, 35, 11, 9, 3, 2.5]);
    expect(second.text.match(/<article class="card">/g)).toHaveLength(7);
    expect(second.text).toContain('BERTScore: Evaluating Text Generation with BERT');
    // A page past the end is the last one; one that is no number, the first.
    expect((await page('/paper/arxiv%3A1706.03762/cited-by?page=99999999999')).text).toContain('page 2 of 2');
    expect((await page('/paper/arxiv%3A1706.03762/cited-by?page=%3Cscript%3E')).text).toContain('page 1 of 2');
    const references = await page('/paper/arxiv%3A1706.03762/references?lang=zh-CN');
    expect(references.text).toContain('<h1>库中的参考文献</h1>');
    expect(references.text).toContain('被引最多的在前 · 共 6 篇论文 · 第 1/1 页');
    expect(references.text).toContain('<span class="cites">被引 20万</span>');
    expect(references.text).toContain('<a href="/paper/arxiv%3A1706.03762?lang=zh-CN">返回“Attention Is All You Need”</a>');
  });

  it('filters by count and lists the most cited first, with links to each order', async () => {
    const { text } = await page('/search?q=cited%3A%3E100000+sort%3Acited');
    const counts = [...text.matchAll(/<span class="cites">cited by ([\d.]+)k<\/span>/g)].map((m) => Number(m[1]));
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.every((c) => c > 100)).toBe(true);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(text).toContain('<span aria-current="true">Most cited first</span>');
    expect(text).toContain('<a href="/search?q=cited%3A%3E100000">Best match first</a>');
    expect(text).toContain('<a href="/search?q=cited%3A%3E100000+sort%3Anew">Newest first</a>');
    const api = (await (await get('/api/search?q=cited%3A%3E100000+sort%3Acited&limit=50')).json()) as { hits: Array<{ cited_by: number | null }> };
    const apiCounts = api.hits.map((h) => h.cited_by);
    expect(apiCounts.length).toBe(counts.length);
    expect(apiCounts.every((c) => c !== null && c > 100_000)).toBe(true);
    expect(apiCounts).toEqual([...apiCounts].sort((a, b) => b! - a!));
  });

  it('says there are none, and 404 for a paper the library lacks', async () => {
    const none = await page('/paper/arxiv%3A1512.03385/references');
    expect(none.res.status).toBe(200);
    expect(none.text).toContain('<h1>References in the library</h1>');
    expect(none.text).toContain('<p>No paper in the library is known to be referenced by this one.</p>');
    expect(none.text).not.toContain('<article');
    expect((await page('/paper/arxiv%3A2304.02643/cited-by')).text).toContain('<p>No paper in the library is known to cite this one.</p>');
    for (const path of ['/paper/arxiv%3A0000.00000/cited-by', '/paper/arxiv%3A1706.03762/citations', '/paper/arxiv%3A1706.03762/cited-by/x']) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it("escapes hostile papers in the lists of a paper's page and on the pages of all of them", async () => {
    for (const path of ['/paper/arxiv%3A1706.03762/cited-by', '/paper/arxiv%3A1706.03762/cited-by?page=2']) expectOnlySiteMarkup((await page(path)).text);
    const hostile = (await site.app.library.search('hostile', { limit: 20 })).hits;
    for (const hit of hostile.slice(0, 5)) expectOnlySiteMarkup((await page(`/paper/${encodeURIComponent(hit.id)}/references`)).text);
  });
});

describe('the API', () => {
  it('/api/search answers the hits as `paperscout search --json` prints them, with the total', async () => {
    const res = await get('/api/search?q=lattice&limit=5&offset=10');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as any;
    const result = await site.app.library.search('lattice', { limit: 15 });
    expect(body).toEqual({ query: 'lattice', total: 45, offset: 10, limit: 5, cut: false, notes: [], hits: await hitsJson(site.app.library, result.hits.slice(10)) });
    expect(Object.keys(body.hits[0])).toEqual(['id', 'title', 'authors', 'venue', 'year', 'status', 'score', 'topics', 'url', 'cited_by', 'openalex']);
    // The count and work where OpenAlex matched the paper, nulls where not.
    const attention = (await (await get('/api/search?q=attention+is+all+you+need&limit=1')).json()) as any;
    expect(attention.hits[0]).toMatchObject({ id: 'arxiv:1706.03762', cited_by: 123456, openalex: 'W2963403868' });
    expect(body.hits[0]).toMatchObject({ cited_by: null, openalex: null });
  });

  it('/api/search says what is wrong with a request in one line', async () => {
    for (const path of ['/api/search', '/api/search?q=x&limit=0', '/api/search?q=x&limit=150&offset=100', '/api/search?q=x&offset=-1', '/api/search?q=x&limit=ten']) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as any).error).toMatch(/^(Give a query|limit is a whole number)/);
    }
  });

  it('/api/suggest suggests titles, also in the OpenSearch format', async () => {
    const body = (await (await get("/api/suggest?q=attention%20is")).json()) as any;
    expect(body.suggestions[0]).toEqual({ id: 'arxiv:1706.03762', title: 'Attention Is All You Need', url: '/paper/arxiv%3A1706.03762' });
    const open = (await (await get('/api/suggest?q=attention%20is&format=opensearch')).json()) as any;
    expect(open[0]).toBe('attention is');
    expect(open[1][0]).toBe('Attention Is All You Need');
    expect(((await (await get("/api/suggest?q=a")).json()) as any).suggestions).toEqual([]);
  });

  it('/opensearch.xml describes the search for a browser', async () => {
    const res = await get('/opensearch.xml');
    expect(res.headers.get('content-type')).toBe('application/opensearchdescription+xml; charset=utf-8');
    const text = await res.text();
    expect(text).toContain(`<Url type="text/html" method="get" template="${site.origin}/search?q={searchTerms}"/>`);
    expect(text).toContain(`<Url type="application/x-suggestions+json" method="get" template="${site.origin}/api/suggest?q={searchTerms}&amp;format=opensearch"/>`);
    expect(text).toContain('<ShortName>Paper Scout</ShortName>');
    // Under PUBLIC_URL, whatever Host the request names.
    expect(openSearchXml(messages('zh-CN'), 12, 'https://papers.lab.example')).toContain('<Url type="text/html" method="get" template="https://papers.lab.example/search?q={searchTerms}"/>');
  });
});

/** A GET with the Host header given (fetch will not send one of our choosing). */
function withHost(origin: string, path: string, host: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, 'x-forwarded-for': `198.51.100.${client++ % 250}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the Host header', () => {
  it('/opensearch.xml built from Host is kept from shared caches; from PUBLIC_URL it may be cached by all', async () => {
    const fromHost = await withHost(site.origin, '/opensearch.xml', 'papers.internal:8080');
    expect(fromHost.status).toBe(200);
    expect(fromHost.text).toContain('template="http://papers.internal:8080/search?q={searchTerms}"');
    expect(fromHost.headers['cache-control']).toBe('private, max-age=60');
    expect(fromHost.headers.vary).toBe('Accept-Language, Host');

    const server = createServer(createSite(site.app, { publicUrl: 'https://papers.lab.example', ratePerSecond: 1000 }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const fromPublicUrl = await withHost(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/opensearch.xml', 'attacker.example');
      expect(fromPublicUrl.text).toContain('template="https://papers.lab.example/search?q={searchTerms}"');
      expect(fromPublicUrl.text).not.toContain('attacker.example');
      expect(fromPublicUrl.headers['cache-control']).toBe('public, max-age=60');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it.each([
    'attacker.example/"><x y="',
    'attacker.example:99999',
    'attacker.example:0',
    '-attacker.example',
    'attacker..example',
    'user@attacker.example',
    '[::1',
    '[attacker.example]',
    `${'a'.repeat(64)}.example`,
    `${'abc.'.repeat(70)}example`,
    'attacker.example:80:80',
    'attacker example',
  ])('is written nowhere when shaped like no host: %j', async (host) => {
    const res = await withHost(site.origin, '/opensearch.xml', host);
    expect(res.status).toBe(200);
    expect(res.text).toContain('template="http://localhost/search?q={searchTerms}"');
    expect(res.text).not.toContain('attacker');
    expect(res.headers['cache-control']).toBe('private, max-age=60');
  });

  it('reaches no other answer: every page links relative to the site', async () => {
    const paths = ['/', '/search?q=lattice', '/search?q=', '/paper/arxiv%3A1706.03762', '/paper/nope', '/topic/nope/nope', '/api/search?q=lattice', '/api/suggest?q=attention', '/nope', ASSETS.css.path];
    for (const path of paths) {
      const res = await withHost(site.origin, path, 'attacker.example');
      expect(`${JSON.stringify(res.headers)}${res.text}`, path).not.toContain('attacker.example');
    }
  });
});

describe('the rate limit', () => {
  it('answers 429 with Retry-After past 20 requests a second from one address, and again once a second has passed', async () => {
    const from = { 'x-forwarded-for': '203.0.113.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await get('/api/suggest?q=la', from)).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    const limited = await get('/search?q=lattice', from);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.text()).toContain('Too many requests: wait a second and try again.');
    // Another address is not held up; this one is let through once the second has passed.
    expect((await get('/api/suggest?q=la', { 'x-forwarded-for': '203.0.113.10' })).status).toBe(200);
    site.setNow(1_000_000 + 1000);
    expect((await get('/api/suggest?q=la', from)).status).toBe(200);
  });
});
