/**
 * The Slack adapter through Bolt's real HTTP receiver: signed requests in, Web API calls and
 * response_url posts captured by a loopback fake Slack. No part of Bolt is mocked.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../src/i18n/index.js';
import { startSlack } from '../../../adapters/slack/index.js';
import { SHARE_LABEL } from '../../../adapters/slack/render.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';
import { limitViolations } from './blockKitLimits.js';
import { BOT_TOKEN, type Json } from './fakeSlack.js';
import { SIGNING_SECRET, button, clickPayload, elementsOf, fixture, menu, startHarness, textOf, type SlackHarness } from './harness.js';

const PROCEEDINGS = fileURLToPath(new URL('../../fixtures/slack/proceedings-papers.jsonl', import.meta.url));

let app: TestApp;
let h: SlackHarness;
beforeAll(async () => {
  app = await createTestApp({ paths: [FIXTURE_PAPERS, PROCEEDINGS] });
  h = await startHarness(app);
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
});

/** Runs a slash command and returns its first response_url post. */
async function slash(command: string, text: string, fields?: Record<string, string>): Promise<Json> {
  const res = await h.command(command, text, fields);
  expect(res.status).toBe(200);
  const [post] = await h.fake.waitForPosts(res.responseUrl);
  expect(limitViolations(post!)).toEqual([]);
  return post!;
}

/** Clicks an element of a message and returns what reached the click's response_url (`count` posts). */
async function click(element: Json, options: Parameters<typeof clickPayload>[1] = {}, count = 1): Promise<Json[]> {
  const res = await h.action(clickPayload(element, options));
  expect(res.status).toBe(200);
  return h.fake.waitForPosts(res.responseUrl, count);
}

function eventOf(name: string, event: Json): Json {
  const body = fixture(name);
  return { ...body, event_id: `Ev${Math.random().toString(36).slice(2, 10)}`, event: { ...(body.event as Json), ...event } };
}

describe('slash commands', () => {
  it('acks /paper with an empty 200 and answers only the caller, with a Share button', async () => {
    const res = await h.command('/paper', 'diffusion models');
    expect(res).toMatchObject({ status: 200, body: '' });
    const [post] = await h.fake.waitForPosts(res.responseUrl);
    expect(post!.response_type).toBe('ephemeral');
    expect(post!.text).toContain('Papers for “diffusion models”: 1. ');
    expect(post!.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Papers for “diffusion models”' } });
    const text = textOf(post!);
    expect(text).toContain('*<https://arxiv.org/abs/2006.11239|');
    expect(text).toContain('Denoising Diffusion Probabilistic Models>*');
    expect(text).toContain('Jonathan Ho, Ajay Jain, Pieter Abbeel\nNeurIPS · 2020 · Poster');
    expect(text).toMatch(/\*diffusion\*/);
    expect(text).toContain('<https://github.com/hojonathanho/diffusion|Code>');
    expect(button(post!, SHARE_LABEL).value).toBe('run:paper:diffusion models');
    expect(limitViolations(post!)).toEqual([]);
    // Bolt checked the bot token against the fake Web API (SLACK_API_URL) before listening.
    expect(h.fake.callsOf('auth.test')[0]).toMatchObject({ token: BOT_TOKEN });
  });

  it('pages with Next and Prev, replacing the private message through its response_url', async () => {
    const first = await slash('/paper', 'learning');
    expect(textOf(first)).toContain('page 1 of');
    expect(() => button(first, '◀ Prev')).toThrow();
    const [second] = await click(button(first, 'Next ▶'));
    expect(second).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(textOf(second!)).toContain('page 2 of');
    expect(textOf(second!)).toMatch(/\*<[^|]+\|6\. /);
    expect(button(second!, SHARE_LABEL).value).toMatch(/^act:paper:page:\w+:1$/);
    expect(limitViolations(second!)).toEqual([]);
    const [back] = await click(button(second!, '◀ Prev'));
    expect(textOf(back!)).toContain('page 1 of');
  });

  it('opens a paper from the menu: abstract, links, similar papers and a way back', async () => {
    const results = await slash('/paper', 'attention is all you need');
    const select = menu(results);
    const [detail] = await click(select, { selected: select.options[0] });
    expect(detail).toMatchObject({ replace_original: true });
    const text = textOf(detail!);
    expect(text).toContain('*<https://arxiv.org/abs/1706.03762|Attention Is All You Need>*');
    expect(text).toContain('We propose the Transformer, a sequence transduction architecture');
    expect(text).toContain('*Similar papers*');
    expect(menu(detail!).placeholder.text).toBe('Open a similar paper…');
    expect(limitViolations(detail!)).toEqual([]);
    const [page] = await click(button(detail!, '◀ Back to results'));
    expect(textOf(page!)).toContain('Papers for “attention is all you need”');
  });

  it('shares into the channel with chat.postMessage, then removes the private copy; the shared copy pages with chat.update', async () => {
    const results = await slash('/paper', 'learning');
    const before = h.fake.callsOf('chat.postMessage').length;
    const posts = await click(button(results, SHARE_LABEL), {}, 1);
    const shared = await h.fake.waitForCall('chat.postMessage', before);
    expect(shared.args).toMatchObject({ channel: 'C0GENERAL', unfurl_links: 'false' }); // form-encoded, as on the wire
    expect(textOf(shared.args)).toContain('Shared by <@U0ALICE>');
    expect(textOf(shared.args)).toContain('page 1 of');
    expect(elementsOf(shared.args).some((e) => e.action_id === 'ps:share')).toBe(false);
    expect(limitViolations(shared.args)).toEqual([]);
    expect(posts).toEqual([{ delete_original: true }]);

    // Someone else pages the channel message: it is updated in place, for everyone.
    const updates = h.fake.callsOf('chat.update').length;
    const ts = '1760000000.000999';
    const res = await h.action(clickPayload(button(shared.args, 'Next ▶'), { message: { ts, blocks: shared.args.blocks as unknown[] }, user: 'U0BOB' }));
    expect(res.status).toBe(200);
    const update = await h.fake.waitForCall('chat.update', updates);
    expect(update.args).toMatchObject({ channel: 'C0GENERAL', ts });
    expect(textOf(update.args)).toContain('page 2 of');
    expect(textOf(update.args)).toContain('Shared by <@U0ALICE>');
    expect(elementsOf(update.args).some((e) => e.action_id === 'ps:share')).toBe(false);
    expect(limitViolations(update.args)).toEqual([]);
  });

  it('reads /paper like: up to 10,000 characters, saying so, and shares a text too long for the button by its saved results', async () => {
    // A Slack command's text has no bound of its own (Discord's boxes hold 6,000 and 4,000).
    const text = 'Offline reinforcement learning learns policies from previously collected data with expectile regression. '.repeat(150);
    const short = await slash('/paper', `like: ${text.slice(0, 200)}`);
    expect(button(short, SHARE_LABEL).value).toBe(`run:paper:like: ${text.slice(0, 200)}`);
    const results = await slash('/paper', `like: ${text}`);
    expect(textOf(results)).toContain('Only the first 10,000 characters of the query were read.');
    expect(button(results, SHARE_LABEL).value).toMatch(/^act:paper:page:\w+:0$/);
    const before = h.fake.callsOf('chat.postMessage').length;
    await click(button(results, SHARE_LABEL), {}, 1);
    const shared = await h.fake.waitForCall('chat.postMessage', before);
    expect(textOf(shared.args)).toContain('Shared by <@U0ALICE>');
    expect(textOf(shared.args)).toContain('Related work for “Offline reinforcement learning');
    expect(textOf(shared.args)).toContain('page 1 of');
    expect(limitViolations(shared.args)).toEqual([]);
  });

  it('shares through the response_url where the bot may not post', async () => {
    h.fake.fail('chat.postMessage', 'channel_not_found', (args) => args.channel === 'G0PRIVATE');
    const results = await slash('/paper', 'learning', { channel_id: 'G0PRIVATE', channel_name: 'privategroup' });
    const payload = clickPayload(button(results, SHARE_LABEL));
    const res = await h.action({ ...payload, channel: { id: 'G0PRIVATE', name: 'privategroup' }, container: { ...(payload.container as Json), channel_id: 'G0PRIVATE' } });
    const [inChannel, removal] = await h.fake.waitForPosts(res.responseUrl, 2);
    expect(inChannel).toMatchObject({ response_type: 'in_channel', replace_original: false });
    expect(textOf(inChannel!)).toContain('Papers for “learning”');
    expect(removal).toEqual({ delete_original: true });

    // The bot cannot chat.update a message it did not post: paging that copy goes through the response_url.
    h.fake.fail('chat.update', 'cant_update_message', (args) => args.channel === 'G0PRIVATE');
    const click = clickPayload(button(inChannel!, 'Next ▶'), { message: { ts: '1760000300.000100', blocks: inChannel!.blocks as unknown[] } });
    const next = await h.action({ ...click, channel: { id: 'G0PRIVATE', name: 'privategroup' }, container: { ...(click.container as Json), channel_id: 'G0PRIVATE' } });
    const [page2] = await h.fake.waitForPosts(next.responseUrl);
    expect(page2).toMatchObject({ replace_original: true });
    expect(page2!.response_type).toBeUndefined();
    expect(textOf(page2!)).toContain('page 2 of');
    expect(textOf(page2!)).toContain('Shared by <@U0ALICE>');
  });

  it('tells only the clicker when a button has expired or is broken, leaving the message as it was', async () => {
    const cases: Array<[string, string]> = [
      ['paper:page:nosuchstate:1', 'These results have expired. Run the search again to page through it.'],
      ['paper:open:notanumber', 'That button is broken; run the search again.'],
      ['nosuch:verb', 'That button no longer does anything here. Run the command again.'],
    ];
    for (const [value, message] of cases) {
      const [post] = await click({ type: 'button', action_id: 'ps:act:1', text: { type: 'plain_text', text: 'Next ▶' }, value });
      expect(post).toMatchObject({ response_type: 'ephemeral', replace_original: false, text: message });
    }
  });

  it('lists the topics, browses one, explains /help and answers an unknown command', async () => {
    const topics = await slash('/topic', '');
    expect(textOf(topics)).toContain('*Deep Learning*\n• Large Language Models');
    expect(() => button(topics, SHARE_LABEL)).toThrow();
    const llm = await slash('/topic', 'llm');
    expect(llm.blocks[0].text.text).toBe('Deep Learning · Large Language Models');
    expect(button(llm, SHARE_LABEL).value).toBe('run:topic:llm');
    const help = await slash('/help', '');
    expect(textOf(help)).toContain('• /paper: Search papers by title, author or keywords');
    const unknown = await slash('/nosuch', 'thing');
    expect(unknown.text).toMatch(/^There is no \/nosuch command\. Commands: \/paper, \/topic/);
  });

  it('reads the command text as typed, although Slack escapes & < > in it', async () => {
    const post = await slash('/paper', 'attention year:&gt;=2017 &amp; <https://arxiv.org/abs/1706.03762>');
    expect(post.blocks[0].text.text).toBe('Papers for “attention year:>=2017 & https://arxiv.org/abs/1706.03762”');
    expect(button(post, SHARE_LABEL).value).toBe('run:paper:attention year:>=2017 & https://arxiv.org/abs/1706.03762');
  });

  it('acknowledges a link button and does nothing else', async () => {
    const res = await h.action(clickPayload({ type: 'button', action_id: 'ps:link:3', text: { type: 'plain_text', text: 'PDF' } }));
    expect(res).toMatchObject({ status: 200, body: '' });
    await h.command('/help', '').then((r) => h.fake.waitForPosts(r.responseUrl));
    expect(h.fake.postsTo(res.responseUrl)).toEqual([]);
  });
});

describe('mentions', () => {
  it('answers a mention inside a thread in that thread', async () => {
    const before = h.fake.callsOf('chat.postMessage').length;
    const res = await h.event(eventOf('app-mention', { text: '<@U0BOT> diffusion transformers', ts: '1760000100.000300', thread_ts: '1760000000.000001' }));
    expect(res.status).toBe(200);
    const call = await h.fake.waitForCall('chat.postMessage', before);
    expect(call.args).toMatchObject({ channel: 'C0GENERAL', thread_ts: '1760000000.000001' });
    expect(call.args.text).toContain('Papers for “diffusion transformers”');
    expect(elementsOf(call.args).some((e) => e.action_id === 'ps:share')).toBe(false);
    expect(limitViolations(call.args)).toEqual([]);
  });

  it('starts a thread under a top-level mention, and reads a pasted link', async () => {
    const before = h.fake.callsOf('chat.postMessage').length;
    await h.event(eventOf('app-mention', { text: '<@U0BOT> <https://arxiv.org/abs/1706.03762v5|arxiv.org/abs/1706.03762v5>', ts: '1760000100.000400' }));
    const call = await h.fake.waitForCall('chat.postMessage', before);
    expect(call.args.thread_ts).toBe('1760000100.000400');
    expect(textOf(call.args)).toMatch(/\*<https:\/\/arxiv\.org\/abs\/1706\.03762\|1\. Attention Is All You Need>\*/);
  });

  it('answers /topic and help in a mention', async () => {
    const before = h.fake.callsOf('chat.postMessage').length;
    await h.event(eventOf('app-mention', { text: '<@U0BOT> /topic llm', ts: '1760000100.000500' }));
    const call = await h.fake.waitForCall('chat.postMessage', before);
    expect((call.args.blocks as Json[])[0]!.text.text).toBe('Deep Learning · Large Language Models');
  });

  it('ignores Slack’s redelivery of a mention it already got, and survives a failing Web API call', async () => {
    const before = h.fake.callsOf('chat.postMessage').length;
    const mention = eventOf('app-mention', { ts: '1760000100.000700' });
    await h.event(mention);
    await h.fake.until(() => h.fake.callsOf('chat.postMessage').length > before, 'the answer to the mention');
    const retry = await h.event(mention, { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    expect(retry.status).toBe(200);
    h.fake.fail('chat.postMessage', 'channel_not_found', (args) => args.channel === 'C0GONE');
    await h.event(eventOf('app-mention', { ts: '1760000100.000710', channel: 'C0GONE' }));
    await h.event(eventOf('app-mention', { ts: '1760000100.000720' }));
    await h.fake.until(() => h.fake.callsOf('chat.postMessage').length >= before + 3, 'three chat.postMessage calls');
    await h.command('/help', '').then((r) => h.fake.waitForPosts(r.responseUrl));
    const calls = h.fake.callsOf('chat.postMessage').slice(before);
    expect(calls.map((c) => [c.args.channel, c.args.thread_ts]).sort()).toEqual([
      ['C0GENERAL', '1760000100.000700'],
      ['C0GENERAL', '1760000100.000720'],
      ['C0GONE', '1760000100.000710'],
    ]);
  });

  it('gives an empty mention a short help line, privately, in the thread', async () => {
    const before = h.fake.callsOf('chat.postEphemeral').length;
    await h.event(eventOf('app-mention', { text: '<@U0BOT>  ', ts: '1760000100.000600' }));
    const call = await h.fake.waitForCall('chat.postEphemeral', before);
    expect(call.args).toMatchObject({ channel: 'C0GENERAL', user: 'U0ALICE', thread_ts: '1760000100.000600', text: messages('en').t('slack.mentionHelp') });
  });
});

describe('link unfurls', () => {
  async function unfurl(links: string[], event: Json = {}): Promise<Json> {
    const before = h.fake.callsOf('chat.unfurl').length;
    const res = await h.event(eventOf('link-shared', { links: links.map((url) => ({ domain: new URL(url).hostname, url })), ...event }));
    expect(res.status).toBe(200);
    return (await h.fake.waitForCall('chat.unfurl', before)).args;
  }

  it.each([
    ['an arXiv abstract page, any version', 'https://arxiv.org/abs/1706.03762v5', 'Attention Is All You Need'],
    ['an arXiv pdf', 'https://arxiv.org/pdf/2006.11239.pdf', 'Denoising Diffusion Probabilistic Models'],
    ['a doi.org link', 'https://doi.org/10.1109/CVPR.2016.90', 'Deep Residual Learning for Image Recognition'],
    ['an OpenReview forum', 'https://openreview.net/forum?id=SkeHuCVFDr', 'BERTScore: Evaluating Text Generation with BERT'],
    ['a paper’s own page', 'https://proceedings.mlr.press/v97/example19a.html', 'Sparse Routing for Mixture Models on Proceedings Pages'],
    ['a paper’s own pdf', 'https://proceedings.mlr.press/v97/example19a/example19a.pdf', 'Sparse Routing for Mixture Models on Proceedings Pages'],
  ])('unfurls %s as a compact card', async (_, url, title) => {
    const args = await unfurl([url]);
    expect(args).toMatchObject({ unfurl_id: 'C0GENERAL.1760000200.000300.9f3c6b1e2d', source: 'conversations_history' });
    const unfurls = args.unfurls as Record<string, { blocks: Json[] }>;
    expect(Object.keys(unfurls)).toEqual([url]);
    const card = unfurls[url]!;
    expect(card.blocks.length).toBeLessThanOrEqual(2);
    expect(card.blocks[0]!.text.text).toContain(`|${title}>*`);
    expect(limitViolations({ text: 'x', blocks: card.blocks })).toEqual([]);
  });

  it('leaves other links alone, and uses channel + ts for deliveries without an unfurl_id', async () => {
    const args = await unfurl(['https://example.com/blog/post', 'https://arxiv.org/abs/1512.03385'], { unfurl_id: undefined, source: undefined });
    expect(args).toMatchObject({ channel: 'C0GENERAL', ts: '1760000200.000300' });
    expect(Object.keys(args.unfurls as Json)).toEqual(['https://arxiv.org/abs/1512.03385']);
  });

  it('never calls chat.unfurl for links that are not papers, and never fails on odd ones', async () => {
    const before = h.fake.callsOf('chat.unfurl').length;
    const odd = ['https://arxiv.org/abs/', 'https://doi.org/%E0%A4%A', 'https://example.com/' + 'x'.repeat(5000), 'https://openreview.net/forum?id=', 'https://unknown.example/paper.pdf'];
    const res = await h.event(eventOf('link-shared', { links: odd.map((url) => ({ domain: 'example.com', url })), message_ts: '1760000200.000700' }));
    expect(res.status).toBe(200);
    // A later event's unfurl is the only one: the odd links produced none.
    const args = await unfurl(['https://arxiv.org/abs/1706.03762'], { unfurl_id: undefined, source: undefined, message_ts: '1760000200.000800' });
    expect(args.ts).toBe('1760000200.000800');
    expect(h.fake.callsOf('chat.unfurl').length).toBe(before + 1);
  });
});

describe('start-up', () => {
  it('refuses to start with a token Slack rejects, saying which setting to fix', async () => {
    await expect(startSlack(app, { botToken: 'xoxb-revoked', signingSecret: SIGNING_SECRET, apiUrl: h.fake.apiUrl, port: 0 })).rejects.toThrow(
      /^Slack did not accept SLACK_BOT_TOKEN at http:\/\/127\.0\.0\.1:\d+\/api\/ \(SLACK_API_URL\): An API error occurred: invalid_auth\. Copy the Bot User OAuth Token/,
    );
  });
});

describe('request verification', () => {
  it('answers url_verification with its challenge', async () => {
    const res = await h.event(fixture('url-verification'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ challenge: fixture('url-verification').challenge });
  });

  it('rejects a bad signature with 401 and runs nothing', async () => {
    const res = await h.command('/paper', 'diffusion', {}, { secret: 'not-the-signing-secret' });
    expect(res.status).toBe(401);
    const event = await h.event(eventOf('app-mention', { ts: '1760000100.000900' }), { secret: 'not-the-signing-secret' });
    expect(event.status).toBe(401);
    await h.command('/help', '').then((r) => h.fake.waitForPosts(r.responseUrl));
    expect(h.fake.postsTo(res.responseUrl)).toEqual([]);
  });

  it('rejects a request older than five minutes with 401', async () => {
    const stale = await h.command('/paper', 'diffusion', {}, { timestamp: Math.floor(Date.now() / 1000) - 5 * 60 - 10 });
    expect(stale.status).toBe(401);
    const fresh = await h.command('/paper', 'diffusion', {}, { timestamp: Math.floor(Date.now() / 1000) - 60 });
    expect(fresh.status).toBe(200);
    await h.fake.waitForPosts(fresh.responseUrl);
    expect(h.fake.postsTo(stale.responseUrl)).toEqual([]);
  });
});
