import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDueDigests, type DigestDeps } from '../../src/digest/runner.js';
import { DeliveryError, type DigestSender } from '../../src/digest/sender.js';
import { pausedReasonText, type Subscription } from '../../src/digest/store.js';
import { messages } from '../../src/i18n/index.js';
import type { PaperRecord } from '../../src/papers/model.js';
import type { Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addLlmPapers } from '../helpers/papers.js';

const LLM = 'topic:"deep-learning/large-language-models"';

class FakeSender implements DigestSender {
  readonly platform = 'slack' as const;
  posts: Array<{ channel: string; reply: Reply; key: string }> = [];
  /** Decides the fate of each call: undefined posts it. */
  behaviour: (call: number) => 'ok' | 'transient' | 'forbidden' | 'rejected' | 'crash-after-post' = () => 'ok';
  private calls = 0;
  readonly duplicateWindowMs: number;
  constructor(private readonly idempotent = false) {
    this.duplicateWindowMs = idempotent ? 120_000 : 0;
  }
  async post(channel: string, reply: Reply, key: string): Promise<void> {
    const what = this.behaviour(this.calls++);
    if (what === 'transient') throw new DeliveryError('transient', 'ratelimited (429)');
    if (what === 'forbidden') throw new DeliveryError('forbidden', 'channel_not_found (404)');
    if (what === 'rejected') throw new DeliveryError('rejected', 'invalid_blocks');
    if (!(this.idempotent && this.posts.some((p) => p.key === key))) this.posts.push({ channel, reply, key });
    if (what === 'crash-after-post') throw new Error('the process died before recording the post');
  }
  titles(): string[][] {
    return this.posts.map((p) => p.reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper.title] : [])));
  }
}

let app: TestApp;
let sender: FakeSender;

beforeEach(async () => {
  app = await createTestApp();
  sender = new FakeSender();
});
afterEach(() => app.dispose());

function deps(s: DigestSender = sender): DigestDeps {
  return { digests: app.digests, library: app.library, states: app.states, senders: { slack: s }, log: pino({ level: 'silent' }) };
}

const addPapers = (at: string, count: number, over: Partial<PaperRecord> = {}) => addLlmPapers(app, at, count, over);

function subscribe(over: Partial<Subscription> = {}): Subscription {
  return app.digests.subscribe({
    platform: 'slack',
    workspace: 'T1',
    channel: 'C1',
    query: LLM,
    label: 'Deep Learning · Large Language Models',
    time: '09:00',
    timezone: 'UTC',
    days: 'daily',
    count: 5,
    fill: false,
    createdBy: 'U1',
    createdAt: '2026-03-01T00:00:00.000Z',
    ...over,
  });
}

const run = (at: string, s?: DigestSender) => runDueDigests(deps(s), new Date(at));

describe('runDueDigests', () => {
  it('sends the new papers of the day once, at the slot', async () => {
    subscribe();
    expect((await run('2026-03-01T08:59:00Z')).due).toBe(0);
    expect((await run('2026-03-01T09:00:00Z')).sent).toBe(1); // nothing new yet: one short line
    expect(sender.posts[0]!.reply.fallback).toMatch(/No new papers on Deep Learning · Large Language Models since Sunday, 1 March 2026/);
    addPapers('2026-03-01T12:00:00Z', 3);
    await run('2026-03-02T09:00:00Z');
    expect(sender.titles()[1]).toHaveLength(3);
    expect(sender.posts[1]!.reply.blocks[0]).toEqual({ kind: 'heading', text: 'Deep Learning · Large Language Models · Monday, 2 March 2026' });
    expect((await run('2026-03-02T09:05:00Z')).due).toBe(0);
    expect(sender.posts).toHaveLength(2);
  });

  it('catches up once after days of downtime, with everything missed', async () => {
    subscribe();
    addPapers('2026-03-01T12:00:00Z', 2);
    await run('2026-03-02T09:00:00Z');
    addPapers('2026-03-02T12:00:00Z', 2);
    addPapers('2026-03-03T12:00:00Z', 2);
    addPapers('2026-03-04T12:00:00Z', 1);
    const summary = await run('2026-03-05T10:00:00Z'); // down on the 3rd, 4th and until after 09:00 on the 5th
    expect(summary.sent).toBe(1);
    expect(sender.posts).toHaveLength(2);
    expect(sender.titles()[1]).toHaveLength(5);
    expect((await run('2026-03-05T11:00:00Z')).sent).toBe(0);
  });

  it('says so in one line on a day with nothing new, or sends the best unsent papers if asked', async () => {
    subscribe();
    subscribe({ channel: 'C2', fill: true });
    await run('2026-03-02T09:00:00Z');
    const byChannel = Object.fromEntries(sender.posts.map((p) => [p.channel, p.reply]));
    expect(byChannel.C1!.blocks).toHaveLength(1);
    expect(byChannel.C1!.fallback).toMatch(/No new papers/);
    const filled = byChannel.C2!.blocks.filter((b) => b.kind === 'paper');
    expect(filled.length).toBeGreaterThan(0);
    expect(JSON.stringify(byChannel.C2!.blocks)).toMatch(/Nothing new since/);
    await run('2026-03-03T09:00:00Z');
    const again = sender.posts.filter((p) => p.channel === 'C2')[1]!;
    const before = filled.map((b) => (b.kind === 'paper' ? b.paper.id : ''));
    for (const b of again.reply.blocks) if (b.kind === 'paper') expect(before).not.toContain(b.paper.id);
  });

  it('does not resend a paper by any of its ids: a v2, a cross-list or the same paper from elsewhere', async () => {
    subscribe();
    const [id] = addPapers('2026-03-01T12:00:00Z', 1);
    await run('2026-03-02T09:00:00Z');
    const sent = app.store.get(id!)!;
    // v2 of the same arXiv paper, and a venue listing of it with a DOI and the author spelled differently.
    addPapers('2026-03-02T12:00:00Z', 1, { title: sent.title, externalIds: { arxiv: sent.externalIds.arxiv! }, abstract: `${sent.abstract} (v2)` });
    addPapers('2026-03-02T13:00:00Z', 1, { title: sent.title, authors: ['A. Nother'], externalIds: { doi: '10.5555/llm.1' }, venue: 'ACL', labels: [] });
    await run('2026-03-03T09:00:00Z');
    expect(sender.titles()[1]).toEqual([]);
    expect(sender.posts[1]!.reply.fallback).toMatch(/No new papers/);
  });

  it('never reposts a part whose post was under way when the process died', async () => {
    subscribe();
    addPapers('2026-03-01T12:00:00Z', 3);
    sender.behaviour = (call) => (call === 0 ? 'crash-after-post' : 'ok');
    await run('2026-03-02T09:00:00Z');
    expect(sender.posts).toHaveLength(1);
    await run('2026-03-02T09:01:00Z'); // restarted
    expect(sender.posts).toHaveLength(1);
    expect(app.digests.get(1)!.lastSlot).toBe('2026-03-02T09:00:00.000Z');
  });

  it('repeats it under the same key where the platform drops duplicates', async () => {
    const discordLike = new FakeSender(true);
    subscribe();
    addPapers('2026-03-01T12:00:00Z', 3);
    discordLike.behaviour = (call) => (call === 0 ? 'crash-after-post' : 'ok');
    await run('2026-03-02T09:00:00Z', discordLike);
    await run('2026-03-02T09:01:00Z', discordLike);
    expect(discordLike.posts).toHaveLength(1);
  });

  it('after a 429 in the middle, retries later from the first part not confirmed', async () => {
    subscribe({ count: 8 });
    addPapers('2026-03-01T12:00:00Z', 8);
    sender.behaviour = (call) => (call === 1 ? 'transient' : 'ok');
    const first = await run('2026-03-02T09:00:00Z');
    expect(first.retrying).toBe(1);
    expect(sender.titles().map((t) => t.length)).toEqual([5]);
    expect((await run('2026-03-02T09:00:30Z')).retrying).toBe(1); // backing off
    expect(sender.posts).toHaveLength(1);
    await run('2026-03-02T09:01:00Z');
    expect(sender.titles().map((t) => t.length)).toEqual([5, 3]);
    expect(JSON.stringify(sender.posts[1]!.reply.buttons)).toMatch(/More on/);
  });

  it('pauses a subscription whose channel is gone after a few attempts, and stops trying', async () => {
    subscribe();
    sender.behaviour = () => 'forbidden';
    await run('2026-03-02T09:00:00Z');
    await run('2026-03-02T09:01:00Z');
    const third = await run('2026-03-02T09:06:00Z');
    expect(third.paused).toBe(1);
    expect(app.digests.get(1)).toMatchObject({ status: 'paused' });
    expect(pausedReasonText(app.digests.get(1)!.pausedReason, messages('en'))).toMatch(/cannot post in this channel/);
    expect(pausedReasonText(app.digests.get(1)!.pausedReason, messages('zh-CN'))).toMatch(/机器人无法在本频道发消息/);
    const later = await run('2026-03-03T09:00:00Z');
    expect(later.due).toBe(0);
  });

  it('a newer slot takes over a digest that never arrived, with its papers', async () => {
    subscribe();
    addPapers('2026-03-01T12:00:00Z', 2);
    sender.behaviour = (call) => (call === 0 ? 'transient' : 'ok');
    await run('2026-03-02T09:00:00Z'); // fails; retry in a minute, but the bot is down all day
    addPapers('2026-03-02T12:00:00Z', 1);
    await run('2026-03-03T09:30:00Z');
    expect(sender.titles()).toHaveLength(1);
    expect(sender.titles()[0]).toHaveLength(3);
  });

  it('papers of a digest given up after repeated failures go out later', async () => {
    subscribe();
    addPapers('2026-03-01T12:00:00Z', 2);
    sender.behaviour = () => 'transient';
    let at = Date.parse('2026-03-02T09:00:00Z');
    for (let i = 0; i < 8; i++) {
      await run(new Date(at).toISOString());
      at += 13 * 3600_000; // past every backoff
      if (new Date(at).toISOString() >= '2026-03-03T09:00:00Z') break;
    }
    sender.behaviour = () => 'ok';
    await run('2026-03-04T09:00:00Z');
    expect(sender.titles().at(-1)).toHaveLength(2);
  });

  it('a part the platform refuses is skipped, and its papers go out another day', async () => {
    subscribe({ count: 8 });
    addPapers('2026-03-01T12:00:00Z', 8);
    sender.behaviour = (call) => (call === 0 ? 'rejected' : 'ok');
    const summary = await run('2026-03-02T09:00:00Z');
    expect(summary.sent).toBe(1);
    expect(sender.titles().map((t) => t.length)).toEqual([3]);
    await run('2026-03-03T09:00:00Z');
    expect(sender.titles().at(-1)).toHaveLength(5);
  });

  it('does not repeat an in-flight part once the platform would no longer drop the duplicate', async () => {
    const discordLike = new FakeSender(true);
    subscribe();
    addPapers('2026-03-01T12:00:00Z', 3);
    discordLike.behaviour = (call) => (call === 0 ? 'crash-after-post' : 'ok');
    await run('2026-03-02T09:00:00Z', discordLike);
    discordLike.posts.length = 0; // the platform has forgotten the nonce by now
    await run('2026-03-02T09:30:00Z', discordLike);
    expect(discordLike.posts).toHaveLength(0);
  });

  it('papers the index did not have yet at one digest are in the next', async () => {
    subscribe();
    // Written by a sync, not yet in the search index when the 2 March digest runs.
    app.store.transaction(() => {
      const gen = app.store.beginGeneration();
      app.store.upsert(
        { title: 'Lagging Large Language Models', authors: ['Ann Lee'], abstract: 'Large language models (LLMs), large language models.', venue: 'arXiv', year: 2026, status: '', keywords: ['large language models'], labels: ['cs.CL'], links: {}, externalIds: { arxiv: '2603.77777' } },
        gen,
        { source: 'arxiv', classify: app.classify, now: new Date('2026-03-02T08:00:00Z') },
      );
    });
    await run('2026-03-02T09:00:00Z');
    expect(sender.titles()[0]).toEqual([]);
    app.library.refresh();
    await run('2026-03-03T09:00:00Z');
    expect(sender.titles()[1]).toEqual(['Lagging Large Language Models']);
  });

  it('opens "More" privately instead of replacing the digest', async () => {
    subscribe();
    addPapers('2026-03-01T12:00:00Z', 2);
    await run('2026-03-02T09:00:00Z');
    const more = sender.posts[0]!.reply.buttons!.flat().find((b) => /^More on/.test(b.label))!;
    expect(more.action).toMatch(/^paper:more:/);
    const ctx = app.context('slack', { id: 'U9' }, { channel: { id: 'C1' }, now: () => new Date('2026-03-02T09:05:00Z') });
    const reply = await app.registry.act(ctx, more.action!);
    expect(reply.fallback).toMatch(/^Deep Learning · Large Language Models:/);
    expect(reply.ephemeral).toBe(true);
    expect(reply.blocks[0]).toEqual({ kind: 'heading', text: 'Deep Learning · Large Language Models' });
  });

  it('runs 1,000 subscriptions in one pass', async () => {
    addPapers('2026-03-01T12:00:00Z', 5);
    for (let i = 0; i < 1000; i++) subscribe({ channel: `C${i}` });
    const summary = await run('2026-03-02T09:00:00Z');
    expect(summary.sent).toBe(1000);
    expect(sender.posts).toHaveLength(1000);
  });
});
