/**
 * A library for the site's tests: the fixture papers, 45 "lattice" papers (three pages of
 * results) and papers whose every field is an attack on HTML, served by the real site handler on
 * a loopback port. Its citations are the fixture's (`helpers/citations.ts`), and every hostile
 * paper cites "Attention Is All You Need" too, more cited than any other citing it: so the
 * paper's page lists hostile titles, and its 27 citing papers take two pages.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { expect } from 'vitest';
import { createSite, type SiteOptions } from '../../../adapters/web/site.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { ATTENTION_WORK, putFixtureCitations } from '../../helpers/citations.js';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';
import { writePapers } from '../contract/hostilePapers.js';

/** Pieces that break naive HTML: tags, attributes out of quotes, scripts, entities, URLs. */
const HTML_ATTACKS = [
  '<script>window.__xss=1</script>', '"><img src=x onerror="window.__xss=1">', "'><svg onload='window.__xss=1'>", '</title><script>window.__xss=1</script>',
  '<!--', '-->', '<a href="javascript:window.__xss=1">x</a>', '&lt;b&gt;', '&', '"', "'", '<', '>', '`', '${x}', '<style>*{display:none}</style>',
  '<iframe src=//evil.example>', '\u0000', '\u202e', '\u2028', '<math><mi xlink:href="javascript:1">', 'javascript:', ' onmouseover=window.__xss=1 ',
  '中文', 'hostile', 'paper', 'a', 'z', ' ',
];
const attack = (max: number) => fc.string({ unit: fc.constantFrom(...HTML_ATTACKS), minLength: 2, maxLength: max, size: 'max' });
const hostileRecord = fc.record({
  title: attack(12).map((t) => `hostile ${t}`),
  authors: fc.array(attack(6), { minLength: 1, maxLength: 12 }),
  abstract: attack(80).map((t) => `hostile paper ${t}`),
  venue: attack(6),
  year: fc.integer({ min: 1990, max: 2026 }),
  status: attack(4),
  keywords: fc.array(attack(4), { maxLength: 4 }),
});

/** 20 papers found by "hostile", every field an attack on HTML, each with links that must not survive as script. */
export function htmlHostilePapers(): Array<Record<string, unknown>> {
  return fc.sample(hostileRecord, { seed: 32, numRuns: 20 }).map((r, i) => ({
    ...r,
    title: r.title.slice(0, 900),
    authors: r.authors.map((a) => a.slice(0, 250)).filter((a) => a.trim() !== ''),
    venue: r.venue.slice(0, 200),
    status: r.status.slice(0, 100),
    url: `https://example.com/${i}/a?x="><script>window.__xss=1</script>`,
    pdf: i % 2 === 0 ? 'javascript:window.__xss=1' : `https://example.com/${i}.pdf`,
    code: `https://example.com/${i}/code'onmouseover='window.__xss=1`,
  }));
}

/** 45 papers that "lattice" finds, three pages of the site's results, newest in 2025. */
export function latticePapers(): Array<Record<string, unknown>> {
  return Array.from({ length: 45 }, (_, i) => ({
    title: `Lattice models of task ${i + 1} in sparse regimes`,
    authors: [`Grace Hopper`, `Author Number${i}`],
    abstract: `We study lattice models for task ${i + 1}, with sparse couplings and a new estimator. The lattice view explains the regime.`,
    venue: i % 2 === 0 ? 'ICLR' : 'NeurIPS',
    year: 2000 + (i % 26),
    status: i % 3 === 0 ? 'Oral' : 'Poster',
    keywords: ['lattice', 'sparse'],
    url: `https://example.org/lattice/${i + 1}`,
  }));
}

export interface SiteUnderTest {
  app: TestApp;
  origin: string;
  /** Changes the site's clock (milliseconds), for the rate limit. */
  setNow(ms: number): void;
  close(): Promise<void>;
}

/**
 * The test library, its site on a loopback port (with `options`), and `env` for the app. The
 * site's clock stands still (the rate limit's tokens come back only by {@link SiteUnderTest.setNow})
 * unless `realTime`.
 */
export async function startTestSite(options: Omit<SiteOptions, 'now'> & { realTime?: boolean } = {}, env: Record<string, string> = {}): Promise<SiteUnderTest> {
  const written = writePapers([...latticePapers(), ...htmlHostilePapers()]);
  const app = await createTestApp({ paths: [FIXTURE_PAPERS, written.file], env });
  written.remove();
  await putFixtureCitations(app);
  const hostile = (await app.library.search('hostile', { limit: 20 })).hits;
  const fetched = new Date('2026-03-01T00:00:00Z');
  await app.stores.citations.put(hostile.map((h, i) => ({ doc: h.storeDoc, openalex: `W${4500000000 + i}`, count: 60000 + i, fetched, references: [ATTENTION_WORK] })));
  await app.library.refresh();
  let now = 1_000_000;
  const { realTime, ...siteOptions } = options;
  const server = createServer(createSite(app, { ...siteOptions, now: realTime ? Date.now : () => now }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    app,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setNow: (ms) => (now = ms),
    async close() {
      server.closeAllConnections();
      server.close();
      await app.dispose();
    },
  };
}

/** Tags and attributes the site writes; anything else in a page came from the data. */
export const SITE_TAGS = new Set([
  'html', 'head', 'meta', 'title', 'link', 'script', 'body', 'a', 'header', 'span', 'nav', 'main', 'form', 'label', 'input', 'button', 'datalist',
  'p', 'div', 'h1', 'h2', 'h3', 'section', 'ul', 'ol', 'li', 'article', 'mark', 'pre', 'footer', 'textarea',
]);
export const SITE_ATTRIBUTES = new Set([
  'lang', 'charset', 'name', 'content', 'rel', 'href', 'type', 'title', 'src', 'defer', 'class', 'id', 'aria-label', 'aria-current', 'hreflang',
  'action', 'method', 'role', 'for', 'value', 'placeholder', 'list', 'autocomplete', 'enterkeyhint', 'autofocus', 'start', 'rows',
]);

/**
 * Every tag and attribute of a page, read as a browser's tokenizer would for well-formed markup:
 * attribute values are double-quoted, so a quote in the data that escaped would end one early and
 * show up as a stray attribute.
 */
export function tagsOf(page: string): Array<{ tag: string; attributes: string[] }> {
  const out: Array<{ tag: string; attributes: string[] }> = [];
  for (const match of page.matchAll(/<(\/?)([a-zA-Z][\w:-]*)([^>]*)>/g)) {
    const attributes = [...match[3]!.matchAll(/\s([^\s="'>/]+)(?:="[^"]*")?/g)].map((a) => a[1]!);
    out.push({ tag: match[2]!.toLowerCase(), attributes });
  }
  return out;
}

/** Fails with the offending markup when a page holds a tag or attribute the site does not write. */
export function expectOnlySiteMarkup(text: string): void {
  const tags = tagsOf(text);
  expect(tags.filter((t) => !SITE_TAGS.has(t.tag)).map((t) => t.tag)).toEqual([]);
  expect(tags.flatMap((t) => t.attributes.filter((a) => !SITE_ATTRIBUTES.has(a.toLowerCase())))).toEqual([]);
  // Every "<" starts one of those tags (or the doctype): none is loose text a browser could read otherwise.
  expect(text.split('<').length - 1).toBe(tags.length + 1);
  expect(tags.filter((t) => t.tag === 'script')).toHaveLength(2); // the one script element, opened and closed
  expect(text).not.toMatch(/href="javascript:/i);
}
