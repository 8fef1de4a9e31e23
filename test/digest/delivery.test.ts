/**
 * Digests delivered by the running adapters (startDiscord, startSlack) through the real platform
 * clients, against the loopback fakes of the adapter tests. The runner's clock is an injected one
 * starting at the `at` it is given. Faults on both platforms are in faults.test.ts.
 */
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDueDigests } from '../../src/digest/runner.js';
import type { DigestSender } from '../../src/digest/sender.js';
import type { ChatPlatform, Subscription } from '../../src/store/digests.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addLlmPapers } from '../helpers/papers.js';
import { FakeClock } from '../sources/helpers/fakeClock.js';
import { startBot, type Bot } from '../adapters/discord/harness.js';
import { startHarness, type SlackHarness } from '../adapters/slack/harness.js';

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(() => app.dispose());

async function subscribe(platform: ChatPlatform, channel: string, over: Partial<Subscription> = {}): Promise<Subscription> {
  return await app.digests.subscribe({
    platform,
    workspace: 'w',
    channel,
    query: 'topic:"deep-learning/large-language-models"',
    label: 'Deep Learning · Large Language Models',
    time: '09:00',
    timezone: 'UTC',
    days: 'daily',
    count: 5,
    fill: true,
    createdBy: 'u',
    createdAt: '2026-03-01T00:00:00.000Z',
    ...over,
  });
}

const run = (senders: Partial<Record<ChatPlatform, DigestSender>>, at: string, clock = new FakeClock(at)) =>
  runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log: pino({ level: 'silent' }), clock }, new Date(at));

/** A sender that posts, then dies before the runner can record it. */
function crashingAfterPost(sender: DigestSender): DigestSender {
  return {
    ...sender,
    async post(channel, reply, key) {
      await sender.post(channel, reply, key);
      throw new Error('the process died');
    },
  };
}

describe('on Discord', () => {
  let bot: Bot;
  beforeEach(async () => {
    bot = await startBot(app);
  });
  afterEach(() => bot.stop());

  it('posts a digest with embeds, no pings and a nonce Discord enforces', async () => {
    await subscribe('discord', '1300000000000000001');
    const summary = await run({ discord: bot.adapter.sender! }, '2026-03-01T09:00:00Z');
    expect(summary.sent).toBe(1);
    const [message] = bot.fake.channelMessages;
    expect(message!.body).toMatchObject({ allowed_mentions: { parse: [] }, enforce_nonce: true, nonce: expect.any(String) });
    expect(message!.body.content).toMatch(/Deep Learning · Large Language Models · Sunday, 1 March 2026/);
    expect(message!.body.embeds.length).toBeGreaterThan(0);
    expect(bot.fake.requests.filter((r) => r.kind === 'message').every((r) => r.problems.length === 0)).toBe(true);
  });

  it('a part resumed after a crash reaches the channel once', async () => {
    await subscribe('discord', '1300000000000000002');
    const sender = bot.adapter.sender!;
    await run({ discord: crashingAfterPost(sender) }, '2026-03-01T09:00:00Z');
    await run({ discord: sender }, '2026-03-01T09:01:00Z');
    const posts = bot.fake.requests.filter((r) => r.kind === 'message');
    expect(posts).toHaveLength(2); // posted twice, with one nonce…
    expect(bot.fake.channelMessages).toHaveLength(1); // …so Discord kept one
  });

  it('a short 429 in the middle is handed to the runner and waited out there; nothing is posted twice', async () => {
    await subscribe('discord', '1300000000000000003', { count: 8 });
    await addLlmPapers(app, '2026-03-01T08:00:00Z', 8);
    bot.fake.rateLimitPosts = 1;
    const clock = new FakeClock('2026-03-01T09:00:00Z');
    const summary = await run({ discord: bot.adapter.sender! }, '2026-03-01T09:00:00Z', clock);
    expect(summary.sent).toBe(1);
    expect(clock.sleeps).toHaveLength(1);
    expect(bot.fake.channelMessages.map((m) => m.body.embeds.length)).toEqual([5, 3]);
  });

  it('a channel that is gone is retried a few times, then its subscription paused', async () => {
    await subscribe('discord', '1300000000000000004');
    bot.fake.channelErrors.set('1300000000000000004', { status: 404, message: 'Unknown Channel', code: 10003 });
    for (const at of ['2026-03-01T09:00:00Z', '2026-03-01T09:01:00Z', '2026-03-01T09:06:00Z']) await run({ discord: bot.adapter.sender! }, at);
    expect((await app.digests.get(1))!.status).toBe('paused');
    const attempts = bot.fake.requests.filter((r) => r.kind === 'message').length;
    await run({ discord: bot.adapter.sender! }, '2026-03-02T09:00:00Z');
    expect(bot.fake.requests.filter((r) => r.kind === 'message')).toHaveLength(attempts);
  });
});

describe('on Slack', () => {
  let slack: SlackHarness;
  beforeEach(async () => {
    slack = await startHarness(app);
  });
  afterEach(() => slack.stop({ fake: true }));

  it('posts a digest with Block Kit and a plain-text fallback', async () => {
    await subscribe('slack', 'C100');
    await run({ slack: slack.slack.sender! }, '2026-03-01T09:00:00Z');
    const [call] = slack.fake.callsOf('chat.postMessage');
    expect(call!.args).toMatchObject({ channel: 'C100', text: expect.stringMatching(/Deep Learning · Large Language Models · Sunday, 1 March 2026/) });
    expect((call!.args.blocks as unknown[]).length).toBeGreaterThan(1);
  });

  it('after a failure in the middle, resumes at the part not confirmed', async () => {
    await subscribe('slack', 'C101', { count: 8 });
    await addLlmPapers(app, '2026-03-01T08:00:00Z', 8);
    let calls = 0;
    slack.fake.fail('chat.postMessage', 'internal_error', () => ++calls === 2);
    const first = await run({ slack: slack.slack.sender! }, '2026-03-01T09:00:00Z');
    expect(first.retrying).toBe(1);
    await run({ slack: slack.slack.sender! }, '2026-03-01T09:02:00Z');
    const posted = slack.fake.callsOf('chat.postMessage');
    expect(posted).toHaveLength(3); // part 1, part 2 refused, part 2 again
    expect(posted[0]!.args.text).not.toBe(posted[2]!.args.text);
  });

  it('pauses a subscription whose channel is gone after a few attempts', async () => {
    await subscribe('slack', 'C102');
    slack.fake.fail('chat.postMessage', 'channel_not_found');
    for (const at of ['2026-03-01T09:00:00Z', '2026-03-01T09:01:00Z', '2026-03-01T09:06:00Z']) await run({ slack: slack.slack.sender! }, at);
    expect(await app.digests.get(1)).toMatchObject({ status: 'paused' });
  });

  it('refuses /digest changes from members who are neither admins nor the subscriber, and defaults to the user’s zone', async () => {
    slack.fake.answer('users.info', (args) => ({ ok: true, user: { id: args.user, is_admin: args.user === 'UADMIN', tz: 'Europe/Paris' } }));
    const created = await slack.command('/digest', 'subscribe llm time:8:00', { user_id: 'UOWNER', channel_id: 'C200' });
    expect((await slack.fake.waitForPosts(created.responseUrl))[0]!.text).toMatch(/Subscribed: .* at 08:00 Europe\/Paris/);
    const refused = await slack.command('/digest', 'unsubscribe', { user_id: 'UOTHER', channel_id: 'C200' });
    const [answer] = await slack.fake.waitForPosts(refused.responseUrl);
    expect(answer).toMatchObject({ response_type: 'ephemeral', text: expect.stringMatching(/Only workspace admins and the person who set up this digest/) });
    const admin = await slack.command('/digest', 'unsubscribe', { user_id: 'UADMIN', channel_id: 'C200' });
    expect((await slack.fake.waitForPosts(admin.responseUrl))[0]!.text).toMatch(/Stopped the daily digest/);
  });
});
