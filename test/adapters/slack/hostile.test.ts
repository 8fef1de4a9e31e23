/**
 * Hostile papers through the whole Slack path (import → search → Bolt → fake Slack): the
 * fixture's hostile record, and a generated corpus of huge, markup-laden, mention-bearing
 * records with broken links. Every message that reaches Slack must hold every Block Kit limit
 * and show the text literally (no mention, no link, no formatting it did not ask for).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';
import { limitViolations } from './blockKitLimits.js';
import type { Json } from './fakeSlack.js';
import { button, clickPayload, fixture, menu, startHarness, textOf, type SlackHarness } from './harness.js';

/** Pieces that break naive Slack messages, mixed with ordinary text. */
const HOSTILE_UNITS = [
  '<!channel>', '<!here>', '<@U0ALICE>', '<#C0GENERAL>', '<https://evil.example|click>', '&amp;', '&lt;', '&', '<', '>', '> ',
  '*', '_', '~', '`', '```', '|', ':rage:', '@everyone', '\n', '\t', '\u0000', '\u001b[2J', '\u202e', '\u2028', '\u200b',
  '😀', 'é', '中文', ' ', ' ', 'hostile', 'paper', 'a', 'b', 'z',
];
const hostileText = (maxLength: number) => fc.string({ unit: fc.constantFrom(...HOSTILE_UNITS), minLength: Math.floor(maxLength / 4), maxLength, size: 'max' });
/** Links of paper `n` (a paper's own links identify it, so each paper has its own). */
const HOSTILE_URLS = [
  (n: number) => `https://example.com/${n}/a?x=1&y=<2>|3`,
  () => 'javascript:alert(1)',
  (n: number) => `https://example.com/${n}/${'long/'.repeat(400)}`,
  (n: number) => `https://example.com/${n}/paper_~\`*.pdf`,
  (n: number) => `https://ok.example/${n}/paper.pdf`,
];
const hostileUrl = fc.integer({ min: 0, max: HOSTILE_URLS.length - 1 });
const hostileRecord = fc.record({
  title: hostileText(60).map((t) => `hostile ${t} ${'Z'.repeat(10)}`),
  authors: fc.array(hostileText(40), { maxLength: 300, size: 'max' }),
  abstract: hostileText(3000).map((t) => `hostile paper ${t}`),
  venue: hostileText(300),
  year: fc.integer({ min: 1990, max: 2026 }),
  status: hostileText(200),
  keywords: fc.array(hostileText(20), { maxLength: 20, size: 'max' }),
  url: hostileUrl,
  pdf: hostileUrl,
  code: hostileUrl,
});

let dir: string;
/** A hostile paper's own page, for the unfurl. */
let pageUrl: string;
let app: TestApp;
let h: SlackHarness;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-slack-hostile-'));
  const papers = fc
    .sample(hostileRecord, { seed: 20260101, numRuns: 40 })
    .map((r, i) => ({
      ...r,
      // As long as the store takes (title 1000, venue 200, status 100, an author 300 characters).
      title: `${r.title.slice(0, 200)} ${'x'.repeat(i % 3 === 0 ? 700 : 1)} n${i}`,
      authors: r.authors.map((a) => a.slice(0, 300)).filter((a) => a.trim() !== ''),
      venue: r.venue.slice(0, 200),
      status: r.status.slice(0, 100),
      url: HOSTILE_URLS[r.url]!(i),
      pdf: HOSTILE_URLS[r.pdf]!(i),
      code: HOSTILE_URLS[r.code]!(i),
    }));
  pageUrl = papers.find((p) => p.url.startsWith('https://ok.example/'))!.url;
  const file = join(dir, 'hostile.jsonl');
  writeFileSync(file, papers.map((p) => JSON.stringify(p)).join('\n'));
  app = await createTestApp({ paths: [FIXTURE_PAPERS, file] });
  expect(app.library.size).toBe(29 + papers.length);
  h = await startHarness(app);
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function clickAndGet(element: Json, options: Parameters<typeof clickPayload>[1] = {}): Promise<Json> {
  const res = await h.action(clickPayload(element, options));
  const [post] = await h.fake.waitForPosts(res.responseUrl);
  return post!;
}

describe('hostile papers', () => {
  it('shows the fixture’s hostile record literally: no mention, link or formatting', async () => {
    const res = await h.command('/paper', '@everyone markdown');
    const [post] = await h.fake.waitForPosts(res.responseUrl);
    expect(limitViolations(post!)).toEqual([]);
    const text = textOf(post!);
    expect(text).toContain('*1. @everyone &lt;b&gt;Markdown&lt;/b&gt; ∗∗bold∗∗ ˋcodeˋ &lt;@123&gt; &lt;!channel&gt; &amp;amp; [link](http://evil.example)*');
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).toContain('∼∼strike∼∼ &gt; quote ∗emphasis∗ ˍunderˍ &lt;https://example.com|label&gt; &lt;#C123&gt; &lt;@U123&gt;.');
    expect(post!.text).not.toMatch(/<!channel>|<@/);
    const detail = await clickAndGet(menu(post!), { selected: menu(post!).options[0] });
    expect(limitViolations(detail)).toEqual([]);
  });

  it('keeps every page, detail view, mention reply and unfurl of a generated hostile corpus within Block Kit’s limits', async () => {
    const messages: Json[] = [];
    const res = await h.command('/paper', 'hostile paper');
    let page: Json | undefined = (await h.fake.waitForPosts(res.responseUrl))[0];
    for (let pages = 0; page && pages < 12; pages++) {
      messages.push(page);
      for (const option of menu(page).options as Json[]) messages.push(await clickAndGet(menu(page), { selected: option }));
      const next = (page.blocks as Json[]).some((b) => b.type === 'actions' && b.elements.some((e: Json) => e.text?.text === 'Next ▶'));
      page = next ? await clickAndGet(button(page, 'Next ▶')) : undefined;
    }
    expect(messages.length).toBeGreaterThan(20);

    const before = h.fake.callsOf('chat.postMessage').length;
    const mention = fixture('app-mention');
    await h.event({ ...mention, event: { ...(mention.event as Json), text: '<@U0BOT> hostile paper &lt;!channel&gt;' } });
    messages.push((await h.fake.waitForCall('chat.postMessage', before)).args);

    const unfurls = h.fake.callsOf('chat.unfurl').length;
    const shared = fixture('link-shared');
    await h.event({ ...shared, event: { ...(shared.event as Json), links: [{ domain: 'ok.example', url: pageUrl }] } });
    const unfurl = (await h.fake.waitForCall('chat.unfurl', unfurls)).args.unfurls as Record<string, { blocks: unknown[] }>;
    messages.push({ text: 'unfurl', blocks: unfurl[pageUrl]!.blocks });

    for (const message of messages) expect(limitViolations(message)).toEqual([]);
    // Something hostile really went through: escaped control characters of Slack's markup.
    expect(messages.some((m) => textOf(m).includes('&lt;!channel&gt;'))).toBe(true);
    // …and pressed against the size budget, which the renderer met by giving up detail.
    expect(Math.max(...messages.map((m) => JSON.stringify(m.blocks).length))).toBeGreaterThan(8000);
  });
});
