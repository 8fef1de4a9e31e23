/**
 * Related work on the search site, over HTTP through the real handler, library and index: the
 * `/related` page (GET, and a POST form for texts too long for an address), the link to it under
 * the search box, the body limit (413), other media types (415) and methods (405), hostile and
 * broken text kept in the box escaped, and `/api/related` with `paperscout related --json`'s hits.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../adapters/web/body.js';
import { CONTENT_SECURITY_POLICY } from '../../../adapters/web/site.js';
import { snippetHitsJson } from '../../../src/papers/hitJson.js';
import { expectOnlySiteMarkup, startTestSite, type SiteUnderTest } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

let site: SiteUnderTest;
/** Each request from its own address (X-Forwarded-For from a loopback peer): the rate limit is tested on its own. */
let client = 0;
const from = () => ({ 'x-forwarded-for': `198.51.100.${client++ % 250}` });
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${site.origin}${path}`, { headers: { ...from(), ...headers } });
const post = (path: string, body: string | Uint8Array, type: string, headers: Record<string, string> = {}) =>
  fetch(`${site.origin}${path}`, { method: 'POST', body, headers: { 'content-type': type, ...from(), ...headers } });
const form = (fields: Record<string, string> | string, path = '/related') => post(path, typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
const api = (body: unknown) => post('/api/related', JSON.stringify(body), 'application/json');

/** A diffusion model's abstract, in more words than the fixture's. */
const ABSTRACT =
  'We study high quality image synthesis with latent variable models trained by denoising score matching. ' +
  'Sample quality improves as these probabilistic models grow, and a weighted variational bound keeps their training stable.';
const FIRST = 'Denoising Diffusion Probabilistic Models';

/** The text in the page's box, unescaped as a browser reads it. */
function boxText(page: string): string {
  const raw = /<textarea id="text" name="text" rows="10" placeholder="[^"]*">([^<]*)<\/textarea>/.exec(page)![1]!;
  return raw.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}
const cardTitles = (page: string) => [...page.matchAll(/<article class="card">\n<h2><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);

beforeAll(async () => {
  site = await startTestSite();
}, 60_000);
afterAll(() => site.close());

describe('/related', () => {
  it('is linked under the search box of the home and results pages, the chosen language kept', async () => {
    for (const path of ['/', '/search?q=lattice']) expect(await (await get(path)).text(), path).toContain('<p class="syntax"><a href="/related">Paste an abstract to find related work</a></p>');
    expect(await (await get('/search?q=lattice&lang=zh-CN')).text()).toContain('<a href="/related?lang=zh-CN">粘贴一段摘要，查找相关工作</a>');
  });

  it('shows the form alone before any text, with the site headers and no link to itself', async () => {
    const res = await get('/related');
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(text).toContain('<h1>Related work</h1>');
    expect(text).toContain('<form class="related" action="/related" method="post">');
    expect(boxText(text)).toBe('');
    expect(text).not.toContain('<article');
    expect(text).not.toContain('Paste an abstract to find related work');
    expect(text).not.toContain('no words to read');
    expectOnlySiteMarkup(text);
  });

  it('answers a posted abstract with the closest papers as search results, each with its closest sentence, the text kept in the box', async () => {
    const res = await form({ text: ABSTRACT });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(cardTitles(text)[0]).toBe(FIRST);
    expect(text).toMatch(/<p class="note">The \d+ closest papers, closest first<\/p>\n<ol class="results" start="1">/);
    // The closest sentence, the text's words and their associates marked.
    const snippet = /<p class="snippet">(.*)<\/p>/.exec(text)![1]!;
    expect(snippet).toContain('<mark>denoising</mark> <mark>score</mark> <mark>matching</mark>');
    expect(snippet.replace(/<\/?mark>/g, '')).toBe('High quality image synthesis with diffusion probabilistic models, a class of latent variable models trained by a weighted variational bound connected to denoising score matching.');
    expect(boxText(text)).toBe(ABSTRACT);
    expectOnlySiteMarkup(text);
    // The same answer for a short text in the address, which caches may keep as a search.
    const inAddress = await get(`/related?text=${encodeURIComponent(ABSTRACT)}`);
    expect(inAddress.headers.get('cache-control')).toBe('public, max-age=60');
    expect(cardTitles(await inAddress.text())).toEqual(cardTitles(text));
  });

  it('reads Chinese through the glossary and says how; keeps the chosen language through the form', async () => {
    const text = await (await form({ text: '扩散模型 生成 图像' }, '/related?lang=zh-CN')).text();
    expect(text).toContain('<html lang="zh-CN">');
    expect(text).toContain('<form class="related" action="/related?lang=zh-CN" method="post">');
    expect(text).toMatch(/扩散模型 → diffusion model/);
    expect(cardTitles(text)[0]).toMatch(/Diffusion/);
  });

  it('says what to paste, in one line, for an empty or all-punctuation text; finds nothing for unknown words', async () => {
    for (const fields of [{ text: '' }, { text: '   \n ' }, { text: '?!… — ...' }, 'text', 'text=&text=diffusion']) {
      const res = await form(fields);
      expect(res.status, JSON.stringify(fields)).toBe(200);
      const text = await res.text();
      expect(text.match(/<p class="note hint" role="alert">That text has no words to read: paste an abstract or a paragraph.<\/p>/g), JSON.stringify(fields)).toHaveLength(1);
      expect(text).not.toContain('<article');
    }
    const unknown = await (await form({ text: 'qwxzzyv plmokn' })).text();
    expect(unknown).toContain('<p>No paper of the library shares enough words with this text. Try a longer passage.</p>');
    expect(boxText(unknown)).toBe('qwxzzyv plmokn');
  });

  it('reads a long text up to 10,000 characters, with a note, and keeps that much in the box', async () => {
    const long = `${ABSTRACT} ${'模型'.repeat(6000)}`;
    const res = await form({ text: long });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('<p class="note">Only the first 10,000 characters of the query were read.</p>');
    expect(boxText(text)).toBe(long.slice(0, 10_000));
    expect(cardTitles(text)[0]).toBe(FIRST);
  });

  it('keeps hostile, broken and repeated input escaped in the box and the page whole', async () => {
    const hostile = '</textarea><script>window.__xss=1</script>"><img src=x onerror=alert(1)> \' onfocus=\'x <!-- &amp; \u0000\u202e diffusion';
    const text = await (await form({ text: hostile })).text();
    expectOnlySiteMarkup(text);
    expect(text).toContain('&lt;/textarea&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;');
    expect(boxText(text)).toBe(hostile.replace('\u0000', '').trim());
    // Bytes that are not UTF-8, raw and percent-encoded, read as U+FFFD.
    for (const body of [Buffer.concat([Buffer.from('text=diffusion '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' models')]), 'text=%FF%C3diffusion+%ED%A0%80models']) {
      const res = await post('/related', body, 'application/x-www-form-urlencoded');
      expect(res.status).toBe(200);
      const page = await res.text();
      expectOnlySiteMarkup(page);
      expect(boxText(page)).toContain('\uFFFD');
      expect(cardTitles(page).length).toBeGreaterThan(0);
    }
    // A field given twice counts the first time.
    expect(boxText(await (await form('text=diffusion+models&text=%3Cb%3E&lang=zh-CN&lang=en')).text())).toBe('diffusion models');
    // The papers' own hostile fields, through the same cards as search.
    const papers = await (await form({ text: 'hostile paper script onerror' })).text();
    expect(papers).toContain('<article class="card">');
    expectOnlySiteMarkup(papers);
  });

  it(`refuses a body over ${MAX_BODY_BYTES / 1024} kB with 413 and a page that says what to paste, declared or not`, async () => {
    const big = `text=${'a'.repeat(MAX_BODY_BYTES)}`;
    const declared = await form(big);
    expect(declared.status).toBe(413);
    expect(declared.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await declared.text()).toContain('That is more than 256 kB, far more than is read: paste the abstract or the first paragraphs (the first 10,000 characters are read).');
    // Chunked, with no length said: counted as it comes.
    const chunked = await rawPost('/related', 'application/x-www-form-urlencoded', [Buffer.from('text='), ...Array.from({ length: 40 }, () => Buffer.alloc(8192, 0x61))]);
    expect(chunked.status).toBe(413);
    expect(chunked.text).toContain('far more than is read');
    // The site goes on answering.
    expect((await form({ text: ABSTRACT })).status).toBe(200);
  });

  it('answers 415 to a body that is not a form, 405 with Allow to other methods; POST elsewhere stays refused', async () => {
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/json']) {
      const res = await post('/related', 'text=diffusion', type);
      expect(res.status, type).toBe(415);
      expect(await res.text()).toContain('Send the text with the form on the related work page');
    }
    const put = await fetch(`${site.origin}/related`, { method: 'PUT', body: 'text=x', headers: from() });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    const search = await post('/search?q=x', 'q=x', 'application/x-www-form-urlencoded');
    expect(search.status).toBe(405);
    expect(search.headers.get('allow')).toBe('GET, HEAD');
  });

  it('counts a POST against the rate limit like any request', async () => {
    const one = { 'x-forwarded-for': '203.0.113.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await post('/related', 'text=diffusion', 'application/x-www-form-urlencoded', one)).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('lets a sender go away mid-body without harm', async () => {
    const socket = connect(Number(new URL(site.origin).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /related HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\nX-Forwarded-For: 198.51.100.251\r\n\r\ntext=diff`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    expect((await form({ text: ABSTRACT })).status).toBe(200);
  });
});

describe('/api/related', () => {
  it('answers a posted JSON text with the hits as paperscout related --json prints them', async () => {
    const res = await api({ text: ABSTRACT, limit: 3 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as any;
    const expected = await snippetHitsJson(site.app.library, await site.app.library.related(ABSTRACT, { limit: 3 }));
    expect(body).toEqual({ limit: 3, notes: [], hits: expected });
    expect(Object.keys(body.hits[0])).toEqual(['id', 'title', 'authors', 'venue', 'year', 'status', 'score', 'topics', 'url', 'cited_by', 'openalex', 'snippet']);
    expect(body.hits[0].title).toBe(FIRST);
    // GET for a short text; 10 hits unless limit says otherwise.
    const short = (await (await get(`/api/related?text=${encodeURIComponent(ABSTRACT)}`)).json()) as any;
    expect(short.limit).toBe(10);
    expect(short.hits.slice(0, 3)).toEqual(expected);
  });

  it('says what is wrong with a request in one line', async () => {
    const cases: Array<[Promise<Response>, number, RegExp]> = [
      [get('/api/related'), 400, /^Give a text with words/],
      [api({}), 400, /^Give a text with words/],
      [api({ text: 42 }), 400, /^Give a text with words/],
      [api({ text: '?!…' }), 400, /^Give a text with words/],
      [api(['text']), 400, /^Give a text with words/],
      [post('/api/related', '{"text": ', 'application/json'), 400, /^Give a text with words/],
      [api({ text: ABSTRACT, limit: 0 }), 400, /^limit is a whole number from 1 to 200/],
      [api({ text: ABSTRACT, limit: 201 }), 400, /^limit is a whole number/],
      [api({ text: ABSTRACT, limit: '5' }), 400, /^limit is a whole number/],
      [get(`/api/related?text=diffusion&limit=ten`), 400, /^limit is a whole number/],
      [post('/api/related', 'text=diffusion', 'application/x-www-form-urlencoded'), 415, /^Send the body as application\/json/],
      [post('/api/related', JSON.stringify({ text: 'a'.repeat(MAX_BODY_BYTES) }), 'application/json'), 413, /^That is more than 256 kB/],
    ];
    for (const [pending, status, error] of cases) {
      const res = await pending;
      expect(res.status).toBe(status);
      expect(((await res.json()) as any).error).toMatch(error);
    }
  });
});

/** A POST whose body is sent in chunks without a Content-Length: the answer once it comes (the body may be cut short). */
function rawPost(path: string, type: string, chunks: readonly Buffer[]): Promise<{ status: number; text: string }> {
  const { port } = new URL(site.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': type, 'transfer-encoding': 'chunked', ...from() } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(parts).toString('utf8') }));
    });
    // The site may close the connection before the whole body is sent: that is its answer to too much.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}
