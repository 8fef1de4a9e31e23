/**
 * The site in a real browser: headless Chromium (Debian's `chromium`, or CHROME_PATH) driven by
 * puppeteer-core over the real site, library and store. A reader types a query and presses
 * Enter, sees the results, goes to page 2, opens a paper and goes back: in English, in Chinese,
 * and with JavaScript off; from a paper to all the papers citing it, page 2 of them and one of
 * those; from the results to related work, an abstract pasted and sent (a POST form). A phone-sized screen never scrolls sideways; axe-core finds no serious or critical
 * violation on the home, results, paper, citation list and topic pages, light and dark; hostile
 * papers run no script. Skipped, saying so, only where there is no Chromium (CI installs it).
 */
import { existsSync } from 'node:fs';
import axe from 'axe-core';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELATED_PATH } from '../../../adapters/web/layout.js';
import { skipping } from '../../helpers/skip.js';
import { startTestSite, type SiteUnderTest } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
// What page.evaluate runs, runs in the page: its DOM globals, loosely typed (the project compiles without the DOM library).
declare const document: any;
declare const window: any;

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const NO_CHROME = skipping('Browser tests', existsSync(CHROME) ? undefined : `no Chromium at ${CHROME} (apt-get install chromium, or set CHROME_PATH)`, { required: true });
/** axe-core's script, run in each page as @axe-core/puppeteer runs it (whose peer dependency, full puppeteer, would download a browser at install). */
const AXE_SOURCE = axe.source;

let site: SiteUnderTest;
let browser: Browser;

describe.skipIf(NO_CHROME)(`in Chromium (${CHROME})`, () => {
  beforeAll(async () => {
    // One browser loading page after page as fast as it can is faster than any reader: the
    // rate limit is tested over HTTP (site.test.ts), not here.
    site = await startTestSite({ realTime: true, ratePerSecond: 1000 });
    browser = await puppeteer.launch({ executablePath: CHROME, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  /** A new tab in `language`, with or without JavaScript, that fails the test on any console error (a CSP violation, a script error). */
  async function tab(options: { language?: string; javascript?: boolean; width?: number } = {}): Promise<Page & { errors: string[] }> {
    const page = (await browser.newPage()) as Page & { errors: string[] };
    page.errors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') page.errors.push(message.text());
    });
    page.on('pageerror', (err) => page.errors.push(String(err)));
    await page.setJavaScriptEnabled(options.javascript ?? true);
    await page.setExtraHTTPHeaders({ 'accept-language': options.language ?? 'en-US,en;q=0.9' });
    await page.setViewport({ width: options.width ?? 1280, height: 800 });
    return page;
  }

  const texts = (page: Page, selector: string) => page.$$eval(selector, (els) => els.map((e) => (e.textContent ?? '').trim()));

  /** Query, Enter, results, page 2, a paper, back: what a reader does first. */
  async function journey(options: { language: string; javascript: boolean; heading: string; pageTwo: string }): Promise<void> {
    const page = await tab(options);
    await page.goto(`${site.origin}/`, { waitUntil: 'load' });
    if (options.javascript) {
      // The script's shortcut: "/" from anywhere on the page focuses the box. The home page's
      // box has autofocus, which Chromium may apply after `load`: once it has, blur it, so that
      // "/" is pressed with the focus elsewhere (a late autofocus had typed it into the box).
      await page.waitForFunction(() => document.activeElement?.id === 'q');
      await page.evaluate(() => document.activeElement?.blur());
      expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('q');
      await page.keyboard.press('/');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    } else {
      await page.click('#q');
    }
    await page.keyboard.type('lattice');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).search).toBe('?q=lattice');
    expect(await texts(page, 'h1')).toEqual([options.heading]);
    expect(await page.$$('article.card')).toHaveLength(20);

    await Promise.all([page.waitForNavigation(), page.click('a[rel="next"]')]);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect((await texts(page, '.results-head .note'))[0]).toContain(options.pageTwo);
    const titles = await texts(page, 'article.card h2 a');
    expect(titles).toHaveLength(20);

    await Promise.all([page.waitForNavigation(), page.click('article.card h2 a')]);
    expect(new URL(page.url()).pathname).toMatch(/^\/paper\//);
    expect(await texts(page, 'h1')).toEqual([titles[0]]);
    expect(await page.$eval('pre.bibtex', (e) => e.textContent)).toMatch(/^@/);

    await Promise.all([page.waitForNavigation(), page.goBack()]);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await texts(page, 'article.card h2 a')).toEqual(titles);
    expect(page.errors).toEqual([]);
    await page.close();
  }

  it('searches, pages, opens a paper and goes back, in English', () => journey({ language: 'en-US,en;q=0.9', javascript: true, heading: 'Papers for “lattice”', pageTwo: 'page 2 of 3' }), 60_000);

  it('does the same in Chinese', () => journey({ language: 'zh-CN,zh;q=0.9', javascript: true, heading: '“lattice”的检索结果', pageTwo: '第 2/3 页' }), 60_000);

  it('does the same with JavaScript off', () => journey({ language: 'en-US,en;q=0.9', javascript: false, heading: 'Papers for “lattice”', pageTwo: 'page 2 of 3' }), 60_000);

  async function citations(javascript: boolean): Promise<void> {
    const page = await tab({ javascript });
    await page.goto(`${site.origin}/paper/arxiv%3A1706.03762`, { waitUntil: 'load' });
    expect(await texts(page, '.paper > .meta .cites')).toEqual(['cited by 123,456']);
    expect(await texts(page, '.paper h2')).toEqual(expect.arrayContaining(['References in the library (6)', 'Cited by, in the library (27)']));
    await Promise.all([page.waitForNavigation(), page.click('a[href$="/cited-by"]')]);
    expect(new URL(page.url()).pathname).toBe('/paper/arxiv%3A1706.03762/cited-by');
    expect(await texts(page, 'h1')).toEqual(['Cited by, in the library']);
    expect(await page.$$('article.card')).toHaveLength(20);
    await Promise.all([page.waitForNavigation(), page.click('a[rel="next"]')]);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    const titles = await texts(page, 'article.card h2 a');
    expect(titles).toContain('BERTScore: Evaluating Text Generation with BERT');
    await Promise.all([page.waitForNavigation(), page.click('article.card h2 a[href="/paper/openreview%3ASkeHuCVFDr"]')]);
    expect(await texts(page, 'h1')).toEqual(['BERTScore: Evaluating Text Generation with BERT']);
    expect(await texts(page, '.paper > .meta .cites')).toEqual(['cited by 3,000']);
    expect(page.errors).toEqual([]);
    await page.close();
  }

  it('goes from a paper to the papers citing it, their second page and one of them', () => citations(true), 60_000);

  it('does the same with JavaScript off', () => citations(false), 60_000);

  /** From the results, the link under the box to related work; an abstract pasted and sent; the closest papers, the text still in the box. */
  async function related(javascript: boolean): Promise<void> {
    const page = await tab({ javascript });
    await page.goto(`${site.origin}/search?q=lattice`, { waitUntil: 'load' });
    await Promise.all([page.waitForNavigation(), page.click('a[href="/related"]')]);
    expect(await texts(page, 'h1')).toEqual(['Related work']);
    await page.type('#text', RELATED_TEXT);
    await Promise.all([page.waitForNavigation(), page.click('form.related button')]);
    expect(new URL(page.url()).pathname).toBe('/related');
    expect((await texts(page, 'article.card h2 a'))[0]).toBe('Denoising Diffusion Probabilistic Models');
    expect(await page.$eval('#text', (e) => e.value)).toBe(RELATED_TEXT);
    expect(page.errors).toEqual([]);
    await page.close();
  }

  it('finds related work for a pasted abstract from a link under the search box', () => related(true), 60_000);

  it('does the same with JavaScript off', () => related(false), 60_000);

  it('reaches the results by Tab from the search box', async () => {
    const page = await tab();
    await page.goto(`${site.origin}/search?q=lattice`);
    await page.focus('#q');
    let reached = false;
    for (let i = 0; i < 15 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.closest('article.card h2') !== null && document.activeElement?.closest('article.card h2') !== undefined);
    }
    expect(reached).toBe(true);
    await page.close();
  }, 30_000);

  it('suggests titles as one types (with JavaScript)', async () => {
    const page = await tab();
    await page.goto(`${site.origin}/`);
    await page.type('#q', 'attention is');
    await page.waitForFunction(() => document.querySelectorAll('#suggestions option').length > 0, { timeout: 5000 });
    expect(await page.$$eval('#suggestions option', (os) => os.map((o) => (o as any).value))).toContain('Attention Is All You Need');
    expect(page.errors).toEqual([]);
    await page.close();
  }, 30_000);

  it('never scrolls sideways on a 360 px screen, hostile papers included', async () => {
    const hostile = (await site.app.library.search('hostile', { limit: 20 })).hits.map((h) => `/paper/${encodeURIComponent(h.id)}`);
    const topic = await topicPath();
    const paths = ['/', '/search?q=lattice', '/search?q=hostile', '/paper/arxiv%3A1706.03762', '/paper/arxiv%3A1706.03762/cited-by', topic, RELATED_PATH, ...hostile.slice(0, 6)];
    for (const width of [360, 1440]) {
      const page = await tab({ width });
      for (const path of paths) {
        await page.goto(`${site.origin}${path}`);
        const { scroll, viewport } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
        expect(scroll, `${path} at ${width} px`).toBeLessThanOrEqual(viewport);
      }
      await page.close();
    }
  }, 60_000);

  it('runs no script from hostile papers or queries', async () => {
    const page = await tab();
    const hostile = (await site.app.library.search('hostile', { limit: 20 })).hits.map((h) => `/paper/${encodeURIComponent(h.id)}`);
    const query = encodeURIComponent('"><script>window.__xss=1</script><img src=x onerror="window.__xss=1">');
    for (const path of ['/search?q=hostile', '/search?q=hostile&page=2', `/search?q=${query}`, `/related?text=${query}`, '/related?text=hostile+paper+script', '/paper/arxiv%3A1706.03762', '/paper/arxiv%3A1706.03762/cited-by', ...hostile]) {
      await page.goto(`${site.origin}${path}`);
      const found = await page.evaluate(() => ({
        xss: window.__xss,
        scripts: document.querySelectorAll('script').length,
        foreign: document.querySelectorAll('img, svg, iframe, style, math, object, embed').length,
        handlers: [...document.querySelectorAll('*')].flatMap((e: any) => [...e.attributes].filter((a: any) => a.name.startsWith('on')).map((a: any) => a.name as string)),
        scriptLinks: [...document.querySelectorAll('a[href]')].filter((a: any) => !/^https?:/.test(a.href)).length,
      }));
      expect(found, path).toEqual({ xss: undefined, scripts: 1, foreign: 0, handlers: [], scriptLinks: 0 });
    }
    await page.close();
  }, 60_000);

  it('has no serious or critical accessibility violation (axe-core) on the home, results, paper, citation list, topic and related work pages, light and dark', async () => {
    const paths = ['/', '/search?q=lattice', '/paper/arxiv%3A1706.03762', '/paper/arxiv%3A1706.03762/cited-by', '/paper/arxiv%3A1706.03762/references?lang=zh-CN', await topicPath(), '/?lang=zh-CN', '/search?q=lattice&lang=zh-CN', RELATED_PATH, `${RELATED_PATH}?text=${encodeURIComponent(RELATED_TEXT)}`, `${RELATED_PATH}?text=%3F&lang=zh-CN`];
    for (const scheme of ['light', 'dark'] as const) {
      const page = await tab();
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      for (const path of paths) {
        await page.goto(`${site.origin}${path}`);
        await page.evaluate(AXE_SOURCE);
        const violations = await page.evaluate(async () => {
          const { violations } = (await window.axe.run(document)) as { violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: unknown }> }> };
          return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target) }));
        });
        expect(violations, `${path} (${scheme})`).toEqual([]);
      }
      await page.close();
    }
  }, 90_000);
});

/** An abstract pasted for related work: the fixture's diffusion paper, in more words. */
const RELATED_TEXT = 'We study high quality image synthesis with latent variable models trained by denoising score matching; sample quality improves as these probabilistic models grow.';

/** The first topic with papers, as the home page links it. */
async function topicPath(): Promise<string> {
  const home = await (await fetch(`${site.origin}/`, { headers: { 'x-forwarded-for': '192.0.2.1' } })).text();
  return /<a href="(\/topic\/[^"]+)">[^<]+<\/a> <span class="n">[1-9]/.exec(home)![1]!;
}
