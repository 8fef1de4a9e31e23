/**
 * Hostile papers through the whole Slack path (import → search → Bolt → fake Slack): the
 * fixture's hostile record, and a generated corpus of huge, markup-laden, mention-bearing
 * records with broken links, in a mention's answer and an unfurl. Every message that reaches
 * Slack must hold every Block Kit limit and show the text literally (no mention, no link, no
 * formatting it did not ask for). Results pages and papers opened from them are the adapter
 * contract's (test/adapters/contract/hostile.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';
import { generatedHostilePapers, writePapers } from '../contract/hostilePapers.js';
import { limitViolations } from './blockKitLimits.js';
import type { Json } from './fakeSlack.js';
import { clickPayload, fixture, menu, startHarness, textOf, type SlackHarness } from './harness.js';

let corpus: ReturnType<typeof writePapers>;
/** A hostile paper's own page, for the unfurl. */
let pageUrl: string;
let app: TestApp;
let h: SlackHarness;
beforeAll(async () => {
  const papers = generatedHostilePapers();
  pageUrl = papers.find((p) => p.url.startsWith('https://ok.example/'))!.url;
  corpus = writePapers(papers);
  app = await createTestApp({ paths: [FIXTURE_PAPERS, corpus.file] });
  expect(app.library.size).toBe(29 + papers.length);
  h = await startHarness(app);
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
  corpus?.remove();
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

  it('keeps a mention’s answer and an unfurl of a generated hostile corpus within Block Kit’s limits', async () => {
    const messages: Json[] = [];
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
  });
});
