import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEASE_TTL_MS, type DigestDeps } from '../../src/digest/pass.js';
import { LOCK_WAIT_BUDGET_MS, runDueDigests } from '../../src/digest/runner.js';
import { choosePapers, renderDigest } from '../../src/digest/compose.js';
import { partId, RATE_LIMIT_WAIT_CAP_MS } from '../../src/digest/deliver.js';
import { DeliveryError, type DigestPartId, type DigestSender } from '../../src/digest/sender.js';
import { pausedReasonText, type Subscription } from '../../src/store/digests.js';
import { messages } from '../../src/i18n/index.js';
import type { PaperRecord } from '../../src/papers/model.js';
import type { Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addLlmPapers, titlesOf } from '../helpers/papers.js';
import { FakeClock } from '../sources/helpers/fakeClock.js';
import { holdWriteLock } from '../store/helpers/holdWriteLock.js';

const LLM = 'topic:"deep-learning/large-language-models"';

type Fate =
  | 'ok'
  /** Not posted: refused, unreachable, a 5xx. */
  | 'transient'
  | 'forbidden'
  | 'rejected'
  /** Posted, and the answer lost. */
  | 'lost'
  /** Not posted, and the answer lost all the same (a timeout before the platform took it). */
  | 'lost-unposted'
  /** Posted, and the process died before recording it. */
  | 'crash-after-post'
  | { rateLimitedMs: number; platformWide?: boolean };

/**
 * A platform in memory: messages kept per channel; with `idempotent`, a repeated key within the
 * window is dropped as Discord drops a repeated enforced nonce.
 */
class FakeSender implements DigestSender {
  readonly platform = 'slack' as const;
  posts: Array<{ channel: string; reply: Reply; key: string }> = [];
  /** Decides the fate of each post. */
  behaviour: (call: number, id: DigestPartId, channel: string) => Fate = () => 'ok';
  /** Decides what each lookup does. */
  lookup: (call: number) => 'ok' | 'forbidden' | 'transient' = () => 'ok';
  lookups = 0;
  calls = 0;
  readonly duplicateWindowMs: number;
  private nonces = new Set<string>();
  constructor(private readonly idempotent = false) {
    this.duplicateWindowMs = idempotent ? 120_000 : 0;
  }
  async post(channel: string, reply: Reply, id: DigestPartId): Promise<void> {
    const what = this.behaviour(this.calls++, id, channel);
    if (typeof what === 'object') throw new DeliveryError('rateLimited', '429', { retryAfterMs: what.rateLimitedMs, platformWide: what.platformWide ?? false });
    if (what === 'transient') throw new DeliveryError('transient', 'connect ECONNREFUSED');
    if (what === 'forbidden') throw new DeliveryError('forbidden', 'channel_not_found (404)');
    if (what === 'rejected') throw new DeliveryError('rejected', 'invalid_blocks');
    if (what === 'lost-unposted') throw new DeliveryError('unknown', 'timeout');
    if (!(this.idempotent && this.nonces.has(id.key))) this.posts.push({ channel, reply, key: id.key });
    this.nonces.add(id.key);
    if (what === 'lost') throw new DeliveryError('unknown', 'timeout');
    if (what === 'crash-after-post') throw new Error('the process died before recording the post');
  }
  async find(channel: string, id: DigestPartId): Promise<boolean> {
    const what = this.lookup(this.lookups++);
    if (what === 'forbidden') throw new DeliveryError('forbidden', 'missing_scope');
    if (what === 'transient') throw new DeliveryError('transient', 'connect ECONNREFUSED');
    return this.posts.some((p) => p.channel === channel && p.key === id.key);
  }
  /** The platform no longer remembers the nonces (its window has passed). */
  forgetNonces(): void {
    this.nonces.clear();
  }
  titles(): string[][] {
    return this.posts.map((p) => p.reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper.title] : [])));
  }
}

let app: TestApp;
let sender: FakeSender;
let clock: FakeClock;

beforeEach(async () => {
  app = await createTestApp();
  sender = new FakeSender();
});
afterEach(() => app.dispose());

function deps(s: DigestSender = sender, over: Partial<DigestDeps> = {}): DigestDeps {
  return { digests: app.digests, library: app.library, states: app.states, senders: { slack: s }, log: pino({ level: 'silent' }), ...over };
}

const addPapers = (at: string, count: number, over: Partial<PaperRecord> = {}) => addLlmPapers(app, at, count, over);

async function subscribe(over: Partial<Subscription> = {}): Promise<Subscription> {
  return await app.digests.subscribe({
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

/** One pass at `at`, on a clock that starts there and moves only when the runner waits. */
const run = (at: string, s?: DigestSender, over: Partial<DigestDeps> = {}) => {
  clock = new FakeClock(at);
  return runDueDigests(deps(s, { clock, ...over }), new Date(at));
};

/** Every paper title posted, over all messages, with how often. */
function counts(s: FakeSender = sender): Map<string, number> {
  const seen = new Map<string, number>();
  for (const title of s.titles().flat()) seen.set(title, (seen.get(title) ?? 0) + 1);
  return seen;
}

async function expectEachOnce(ids: readonly string[], s: FakeSender = sender): Promise<void> {
  const titles = await titlesOf(app, ids);
  const seen = counts(s);
  expect([...seen.keys()].sort()).toEqual([...titles].sort());
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
}

describe('runDueDigests', () => {
  it('sends the new papers of the day once, at the slot', async () => {
    await subscribe();
    expect((await run('2026-03-01T08:59:00Z')).due).toBe(0);
    expect((await run('2026-03-01T09:00:00Z')).sent).toBe(1); // nothing new yet: one short line
    expect(sender.posts[0]!.reply.fallback).toMatch(/No new papers on Deep Learning · Large Language Models since Sunday, 1 March 2026/);
    await addPapers('2026-03-01T12:00:00Z', 3);
    await run('2026-03-02T09:00:00Z');
    expect(sender.titles()[1]).toHaveLength(3);
    expect(sender.posts[1]!.reply.blocks[0]).toEqual({ kind: 'heading', text: 'Deep Learning · Large Language Models · Monday, 2 March 2026' });
    expect((await run('2026-03-02T09:05:00Z')).due).toBe(0);
    expect(sender.posts).toHaveLength(2);
  });

  it('catches up once after days of downtime, with everything missed', async () => {
    await subscribe();
    await addPapers('2026-03-01T12:00:00Z', 2);
    await run('2026-03-02T09:00:00Z');
    await addPapers('2026-03-02T12:00:00Z', 2);
    await addPapers('2026-03-03T12:00:00Z', 2);
    await addPapers('2026-03-04T12:00:00Z', 1);
    const summary = await run('2026-03-05T10:00:00Z'); // down on the 3rd, 4th and until after 09:00 on the 5th
    expect(summary.sent).toBe(1);
    expect(sender.posts).toHaveLength(2);
    expect(sender.titles()[1]).toHaveLength(5);
    expect((await run('2026-03-05T11:00:00Z')).sent).toBe(0);
  });

  it('says so in one line on a day with nothing new, or sends the best unsent papers if asked', async () => {
    await subscribe();
    await subscribe({ channel: 'C2', fill: true });
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
    await subscribe();
    const [id] = await addPapers('2026-03-01T12:00:00Z', 1);
    await run('2026-03-02T09:00:00Z');
    const sent = (await app.store.get(id!))!;
    // v2 of the same arXiv paper, and a venue listing of it with a DOI and the author spelled differently.
    await addPapers('2026-03-02T12:00:00Z', 1, { title: sent.title, externalIds: { arxiv: sent.externalIds.arxiv! }, abstract: `${sent.abstract} (v2)` });
    await addPapers('2026-03-02T13:00:00Z', 1, { title: sent.title, authors: ['A. Nother'], externalIds: { doi: '10.5555/llm.1' }, venue: 'ACL', labels: [] });
    await run('2026-03-03T09:00:00Z');
    expect(sender.titles()[1]).toEqual([]);
    expect(sender.posts[1]!.reply.fallback).toMatch(/No new papers/);
  });

  it('after a 429 in the middle, retries later from the first part not confirmed', async () => {
    await subscribe({ count: 8 });
    await addPapers('2026-03-01T12:00:00Z', 8);
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
    await subscribe();
    sender.behaviour = () => 'forbidden';
    await run('2026-03-02T09:00:00Z');
    await run('2026-03-02T09:01:00Z');
    const third = await run('2026-03-02T09:06:00Z');
    expect(third.paused).toBe(1);
    expect(await app.digests.get(1)).toMatchObject({ status: 'paused' });
    expect(pausedReasonText((await app.digests.get(1))!.pausedReason, messages('en'))).toMatch(/cannot post in this channel/);
    expect(pausedReasonText((await app.digests.get(1))!.pausedReason, messages('zh-CN'))).toMatch(/机器人无法在本频道发消息/);
    const later = await run('2026-03-03T09:00:00Z');
    expect(later.due).toBe(0);
  });

  it('a newer slot takes over a digest that never arrived, with its papers', async () => {
    await subscribe();
    await addPapers('2026-03-01T12:00:00Z', 2);
    sender.behaviour = (call) => (call === 0 ? 'transient' : 'ok');
    await run('2026-03-02T09:00:00Z'); // fails; retry in a minute, but the bot is down all day
    await addPapers('2026-03-02T12:00:00Z', 1);
    await run('2026-03-03T09:30:00Z');
    expect(sender.titles()).toHaveLength(1);
    expect(sender.titles()[0]).toHaveLength(3);
  });

  it('papers of a digest given up after repeated failures go out later', async () => {
    await subscribe();
    const ids = await addPapers('2026-03-01T12:00:00Z', 2);
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
    await expectEachOnce(ids);
  });

  it('a part the platform refuses is skipped, and its papers go out another day', async () => {
    await subscribe({ count: 8 });
    await addPapers('2026-03-01T12:00:00Z', 8);
    sender.behaviour = (call) => (call === 0 ? 'rejected' : 'ok');
    const summary = await run('2026-03-02T09:00:00Z');
    expect(summary.sent).toBe(1);
    expect(sender.titles().map((t) => t.length)).toEqual([3]);
    await run('2026-03-03T09:00:00Z');
    expect(sender.titles().at(-1)).toHaveLength(5);
  });

  it('papers the index did not have yet at one digest are in the next', async () => {
    await subscribe();
    // Written by a sync, not yet in the search index when the 2 March digest runs.
    await app.store.write((tx) => tx.upsertBatch([{ title: 'Lagging Large Language Models', authors: ['Ann Lee'], abstract: 'Large language models (LLMs), large language models.', venue: 'arXiv', year: 2026, status: '', keywords: ['large language models'], labels: ['cs.CL'], links: {}, externalIds: { arxiv: '2603.77777' } }], { source: 'arxiv', classify: app.classify, now: new Date('2026-03-02T08:00:00Z') }));
    await run('2026-03-02T09:00:00Z');
    expect(sender.titles()[0]).toEqual([]);
    await app.library.refresh();
    await run('2026-03-03T09:00:00Z');
    expect(sender.titles()[1]).toEqual(['Lagging Large Language Models']);
  });

  it('opens "More" privately instead of replacing the digest', async () => {
    await subscribe();
    await addPapers('2026-03-01T12:00:00Z', 2);
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
    await addPapers('2026-03-01T12:00:00Z', 5);
    for (let i = 0; i < 1000; i++) await subscribe({ channel: `C${i}` });
    const summary = await run('2026-03-02T09:00:00Z');
    expect(summary.sent).toBe(1000);
    expect(sender.posts).toHaveLength(1000);
  });
});

describe('a post whose outcome is unknown', () => {
  it('is looked for before anything is posted again, and not reposted when it arrived', async () => {
    await subscribe({ count: 12 });
    const ids = await addPapers('2026-03-01T12:00:00Z', 12);
    sender.behaviour = (call) => (call === 1 ? 'lost' : 'ok');
    expect((await run('2026-03-02T09:00:00Z')).retrying).toBe(1);
    expect(await app.digests.run(1, '2026-03-02T09:00:00.000Z')).toMatchObject({ partsDone: 1, inFlight: true, inFlightSince: '2026-03-02T09:00:00.000Z' });
    expect((await run('2026-03-02T09:01:00Z')).sent).toBe(1);
    expect(sender.lookups).toBe(1);
    expect(sender.posts).toHaveLength(3);
    await expectEachOnce(ids);
  });

  it('is posted again when the channel does not have it', async () => {
    await subscribe({ count: 12 });
    const ids = await addPapers('2026-03-01T12:00:00Z', 12);
    sender.behaviour = (call) => (call === 1 ? 'lost-unposted' : 'ok');
    await run('2026-03-02T09:00:00Z');
    await run('2026-03-02T09:01:00Z');
    expect(sender.lookups).toBe(1);
    await expectEachOnce(ids);
  });

  it('is resolved the same way after the process died while posting it', async () => {
    await subscribe();
    const ids = await addPapers('2026-03-01T12:00:00Z', 3);
    sender.behaviour = (call) => (call === 0 ? 'crash-after-post' : 'ok');
    await run('2026-03-02T09:00:00Z');
    await run('2026-03-02T09:01:00Z'); // restarted
    expect(sender.posts).toHaveLength(1);
    expect((await app.digests.get(1))!.lastSlot).toBe('2026-03-02T09:00:00.000Z');
    await expectEachOnce(ids);
  });

  it('is posted again under its key, without a lookup, while the platform drops duplicates', async () => {
    const discordLike = new FakeSender(true);
    await subscribe();
    const ids = await addPapers('2026-03-01T12:00:00Z', 3);
    discordLike.behaviour = (call) => (call === 0 ? 'lost' : 'ok');
    await run('2026-03-02T09:00:00Z', discordLike);
    await run('2026-03-02T09:01:00Z', discordLike);
    expect(discordLike.calls).toBe(2);
    expect(discordLike.lookups).toBe(0);
    await expectEachOnce(ids, discordLike);
  });

  it('is looked for once the platform would no longer drop a repeat, and a refused resend in the window keeps it unresolved', async () => {
    const discordLike = new FakeSender(true);
    await subscribe();
    const ids = await addPapers('2026-03-01T12:00:00Z', 3);
    discordLike.behaviour = (call) => (call === 0 ? 'lost' : call === 1 ? 'transient' : 'ok');
    await run('2026-03-02T09:00:00Z', discordLike);
    await run('2026-03-02T09:01:00Z', discordLike); // resent under its nonce: refused, not posted
    expect(await app.digests.run(1, '2026-03-02T09:00:00.000Z')).toMatchObject({ inFlight: true, inFlightSince: '2026-03-02T09:00:00.000Z' });
    discordLike.forgetNonces();
    await run('2026-03-02T09:10:00Z', discordLike);
    expect(discordLike.lookups).toBe(1);
    expect(discordLike.calls).toBe(2);
    await expectEachOnce(ids, discordLike);
  });

  it('stays unresolved while the channel cannot be read, and the subscription is paused saying why', async () => {
    await subscribe();
    const ids = await addPapers('2026-03-01T12:00:00Z', 3);
    sender.behaviour = (call) => (call === 0 ? 'lost' : 'ok');
    sender.lookup = () => 'forbidden';
    for (const at of ['2026-03-02T09:00:00Z', '2026-03-02T09:01:00Z', '2026-03-02T09:06:00Z', '2026-03-02T09:21:00Z']) await run(at);
    expect(await app.digests.get(1)).toMatchObject({ status: 'paused' });
    expect(pausedReasonText((await app.digests.get(1))!.pausedReason, messages('en'))).toMatch(/cannot read this channel's recent messages.*missing_scope/);
    expect(await app.digests.run(1, '2026-03-02T09:00:00.000Z')).toMatchObject({ state: 'sending', inFlight: true });
    expect(sender.calls).toBe(1);
    // Fixed, and subscribed again: the digest resumes by checking, not by reposting.
    sender.lookup = () => 'ok';
    await subscribe();
    await run('2026-03-02T10:00:00Z');
    expect(sender.calls).toBe(1);
    await expectEachOnce(ids);
    expect((await app.digests.run(1, '2026-03-02T09:00:00.000Z'))!.state).toBe('done');
  });
});

describe('rate limits', () => {
  it('waits out a short one (up to the cap) and posts the part once', async () => {
    await subscribe({ count: 12 });
    const ids = await addPapers('2026-03-01T12:00:00Z', 12);
    sender.behaviour = (call) => (call === 1 ? { rateLimitedMs: 5_000 } : call === 2 ? { rateLimitedMs: RATE_LIMIT_WAIT_CAP_MS } : 'ok');
    expect((await run('2026-03-02T09:00:00Z')).sent).toBe(1);
    expect(clock.sleeps).toEqual([5_000, RATE_LIMIT_WAIT_CAP_MS]);
    await expectEachOnce(ids);
  });

  it('reschedules the part at a long one and ends the pass for that platform, never sleeping through it', async () => {
    for (let i = 1; i <= 10; i++) await subscribe({ channel: `C${i}`, count: 12 });
    const ids = await addPapers('2026-03-01T12:00:00Z', 12);
    sender.behaviour = (_call, id, channel) => (channel === 'C1' && id.part === 1 && sender.posts.length < 20 ? { rateLimitedMs: 600_000, platformWide: true } : 'ok');
    const first = await run('2026-03-02T09:00:00Z');
    expect(clock.sleeps).toEqual([]);
    // Eight digests were under way (one met the 429, seven stopped before their next post); two not started.
    expect(first).toMatchObject({ sent: 0, retrying: 8, deferred: 2 });
    expect(await app.digests.run(1, '2026-03-02T09:00:00.000Z')).toMatchObject({ partsDone: 1, inFlight: false, nextAttemptAt: '2026-03-02T09:10:00.000Z' });
    // The next pass starts the two left over (the platform would answer its own 429 if still limited).
    expect(await run('2026-03-02T09:05:00Z')).toMatchObject({ retrying: 8, sent: 2 });
    expect((await run('2026-03-02T09:10:00Z')).sent).toBe(8);
    for (let i = 1; i <= 10; i++) {
      const titles = sender.posts.filter((p) => p.channel === `C${i}`).flatMap((p) => p.reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper.title] : [])));
      expect(titles.sort()).toEqual((await titlesOf(app, ids)).sort());
    }
  });
});

describe('one process per run', () => {
  it('two passes at once post each part once', async () => {
    for (let i = 0; i < 12; i++) await subscribe({ channel: `C${i}`, count: 10 });
    await addPapers('2026-03-01T12:00:00Z', 10);
    // Posts that take a while, so that both passes are in the middle of runs together.
    const slow = new FakeSender();
    const post = slow.post.bind(slow);
    slow.post = async (...args) => {
      await new Promise((resolve) => setImmediate(resolve));
      return post(...args);
    };
    const [a, b] = await Promise.all([
      runDueDigests(deps(slow, { clock: new FakeClock('2026-03-02T09:00:00Z'), owner: 'A' }), new Date('2026-03-02T09:00:00Z')),
      runDueDigests(deps(slow, { clock: new FakeClock('2026-03-02T09:00:00Z'), owner: 'B' }), new Date('2026-03-02T09:00:00Z')),
    ]);
    expect(a.sent + b.sent).toBe(12);
    expect(a.sent).toBeGreaterThan(0);
    expect(b.sent).toBeGreaterThan(0);
    const keys = slow.posts.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(24);
  });

  it('a run held by a live process is left alone; one left by a dead process is taken over', async () => {
    const sub = await subscribe();
    const ids = await addPapers('2026-03-01T12:00:00Z', 3);
    // A process planned the digest, posted its part and was killed before recording it.
    const start = new Date('2026-03-02T09:00:00Z');
    const plan = await choosePapers(app.library, app.digests, sub, new Date(sub.createdAt));
    const planned = (await app.digests.planRun(sub, start.toISOString(), plan, 1, { owner: 'dead', now: start, ttlMs: LEASE_TTL_MS }))!;
    await app.digests.startPart(planned, 'dead', start);
    const [part] = await renderDigest({ library: app.library, states: app.states, now: start }, sub, planned, start);
    await sender.post(sub.channel, part!.reply, partId(sub, planned, 0));
    const early = await run(new Date(start.getTime() + LEASE_TTL_MS - 1000).toISOString());
    expect(early.busy).toBe(1);
    expect(sender.lookups).toBe(0);
    const later = await run(new Date(start.getTime() + LEASE_TTL_MS + 1000).toISOString());
    expect(later.sent).toBe(1);
    expect(sender.lookups).toBe(1);
    await expectEachOnce(ids);
  });

  it('a sender that lost its lease mid-post stops, and leaves the part for the new owner to resolve', async () => {
    await subscribe({ count: 12 });
    const ids = await addPapers('2026-03-01T12:00:00Z', 12);
    const thief = { owner: 'B', now: new Date('2026-03-02T09:05:00Z'), ttlMs: LEASE_TTL_MS };
    const stalled: DigestSender = {
      platform: 'slack',
      duplicateWindowMs: 0,
      find: (c, id) => sender.find(c, id),
      post: async (c, r, id) => {
        await sender.post(c, r, id);
        // Stalled past the lease's end: another process took the run meanwhile.
        if (id.part === 1) expect(await app.digests.claimRun({ subscriptionId: 1, slot: '2026-03-02T09:00:00.000Z' }, thief)).toBeDefined();
      },
    };
    const first = await run('2026-03-02T09:00:00Z', stalled, { owner: 'A' });
    expect(first.busy).toBe(1);
    expect(sender.posts).toHaveLength(2);
    expect(await app.digests.run(1, '2026-03-02T09:00:00.000Z')).toMatchObject({ partsDone: 1, inFlight: true, leaseOwner: 'B' });
    await run('2026-03-02T09:07:00Z');
    expect(sender.lookups).toBe(1);
    await expectEachOnce(ids);
  });

  describe('another process holding the database write lock (an import, a migration)', () => {
    type Line = { level: number; msg: string };
    /** 16 channels with a digest due at 09:00, the serving bot's short lock wait, and a log kept. */
    async function sixteenDue(): Promise<{ ids: string[]; logged: Line[]; log: pino.Logger }> {
      app.stores.serve();
      for (let i = 0; i < 16; i++) await subscribe({ channel: `C${i}` });
      const ids = await addPapers('2026-03-01T12:00:00Z', 3);
      const logged: Line[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as Line) });
      return { ids, logged, log };
    }
    const above = (logged: Line[], level: number) => logged.filter((l) => l.level >= level);

    it('longer than the pass waits: one warning for the pass, nothing posted, then each digest once at the next pass', async () => {
      const { ids, logged, log } = await sixteenDue();
      const lock = await holdWriteLock(app.config.dbPath);
      let locked;
      try {
        locked = await run('2026-03-02T09:00:00Z', sender, { log });
      } finally {
        await lock.release();
      }
      expect(locked).toMatchObject({ sent: 0, locked: 16 });
      expect(sender.posts).toHaveLength(0);
      expect(above(logged, 40)).toEqual([expect.objectContaining({ level: 40, locked: 16, msg: `digests left for the next pass: another process held the database write lock for more than ${LOCK_WAIT_BUDGET_MS / 1000} s` })]);
      // It waited within its budget, with a few tries: not one per digest.
      const waited = clock.sleeps.reduce((a, b) => a + b, 0);
      expect(waited).toBeGreaterThan(LOCK_WAIT_BUDGET_MS / 2);
      expect(waited).toBeLessThanOrEqual(LOCK_WAIT_BUDGET_MS);
      expect(clock.sleeps.length).toBeLessThan(16);

      const next = await run('2026-03-02T09:01:00Z');
      expect(next).toMatchObject({ sent: 16, locked: 0 });
      expect(new Set(sender.posts.map((p) => p.channel)).size).toBe(16);
      for (const titles of sender.titles()) expect(titles).toHaveLength(3);
      expect(await titlesOf(app, ids)).toHaveLength(3);
    });

    it('released while the pass waits: every digest goes out in that pass, once, and nothing is logged above info', async () => {
      const { logged, log } = await sixteenDue();
      const lock = await holdWriteLock(app.config.dbPath);
      // The lock is let go after 3 s of the pass's time (time moves only when the pass waits).
      const releasing = new (class extends FakeClock {
        released = false;
        override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
          await super.sleep(ms, signal);
          if (!this.released && this.now().getTime() >= Date.parse('2026-03-02T09:00:03Z')) {
            this.released = true;
            await lock.release();
          }
        }
      })('2026-03-02T09:00:00Z');
      try {
        const summary = await runDueDigests(deps(sender, { clock: releasing, log }), new Date('2026-03-02T09:00:00Z'));
        expect(summary).toMatchObject({ due: 16, sent: 16, locked: 0 });
      } finally {
        await lock.release();
      }
      expect(releasing.released).toBe(true);
      expect(above(logged, 40)).toEqual([]);
      expect(sender.posts).toHaveLength(16);
      expect(new Set(sender.posts.map((p) => p.channel)).size).toBe(16);
    });

    it('a shutdown while the pass waits ends the wait at once, leaving the digests to the next pass without a warning', async () => {
      const { logged, log } = await sixteenDue();
      const lock = await holdWriteLock(app.config.dbPath);
      const stopping = new AbortController();
      const stopped = new (class extends FakeClock {
        override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
          stopping.abort(); // the bot is asked to stop during the first wait
          await super.sleep(ms, signal);
        }
      })('2026-03-02T09:00:00Z');
      try {
        const summary = await runDueDigests(deps(sender, { clock: stopped, log, signal: stopping.signal }), new Date('2026-03-02T09:00:00Z'));
        expect(summary).toMatchObject({ sent: 0, locked: 16 });
      } finally {
        await lock.release();
      }
      expect(above(logged, 40)).toEqual([]);
      expect(logged.filter((l) => /write lock/.test(l.msg))).toEqual([expect.objectContaining({ level: 30, locked: 16 })]);
      expect(stopped.sleeps).toEqual([]); // the first wait was cut short, and none followed
    });
  });
});
