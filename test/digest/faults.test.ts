/**
 * Digests under the faults a deployment meets, on both platforms, through the real clients
 * against the loopback fakes: an outage (the fake's port closed and reopened), a slow or lost
 * answer, a 429 while another `run-due` starts. Time is an injected clock: `run-due` at t,
 * t+1m, … is a pass at each of those instants, and the fakes stamp messages with the same clock.
 * In every case each paper arrives exactly once, counted over every message in the channel, and
 * papers of parts never posted go to the next digest.
 */
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunDueSummary } from '../../src/digest/pass.js';
import { runDueDigests } from '../../src/digest/runner.js';
import type { DigestSender } from '../../src/digest/sender.js';
import { pausedReasonText } from '../../src/store/digests.js';
import { messages } from '../../src/i18n/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addLlmPapers, titlesOf } from '../helpers/papers.js';
import { FakeClock } from '../sources/helpers/fakeClock.js';
import { PLATFORMS, type TestPlatform } from './platforms.js';

const T = Date.parse('2026-03-02T09:00:00Z');
const minutes = (n: number) => new Date(T + n * 60_000).toISOString();

let app: TestApp;
let platform: TestPlatform;
let channel: string;

/** A clock whose sleeps wait for the test to let them end. */
class GatedClock extends FakeClock {
  private release: (() => void) | undefined;
  private arrived: (() => void) | undefined;
  readonly asleep = new Promise<void>((resolve) => (this.arrived = resolve));
  override async sleep(ms: number): Promise<void> {
    const gate = new Promise<void>((resolve) => (this.release = resolve));
    this.arrived?.();
    await gate;
    await super.sleep(ms);
  }
  wake(): void {
    this.release?.();
  }
}

/** One `digest run-due` at `at`: a fresh sender, a clock starting there (shared with the fake). */
function runDue(at: string, options: { sender?: DigestSender; clock?: FakeClock; owner?: string } = {}): Promise<RunDueSummary> {
  const clock = options.clock ?? new FakeClock(at);
  platform.setNow(() => clock.now().getTime());
  const sender = options.sender ?? platform.sender();
  return runDueDigests(
    { digests: app.digests, library: app.library, states: app.states, senders: { [platform.name]: sender }, log: pino({ level: 'silent' }), clock, ...(options.owner && { owner: options.owner }) },
    new Date(at),
  );
}

/** Each paper of `ids` in exactly one message of the channel, and nothing else. */
async function expectEachOnce(ids: readonly string[]): Promise<void> {
  const seen = platform.papersIn(channel).flat();
  expect([...seen].sort()).toEqual((await titlesOf(app, ids)).sort());
}

describe.each(PLATFORMS)('digests on %s under faults', (_name, start) => {
  let ids: string[];
  beforeEach(async () => {
    app = await createTestApp();
    platform = await start();
    channel = platform.channel(7);
    await app.digests.subscribe({
      platform: platform.name,
      workspace: 'w',
      channel,
      query: 'topic:"deep-learning/large-language-models"',
      label: 'Deep Learning · Large Language Models',
      time: '09:00',
      timezone: 'UTC',
      days: 'daily',
      count: 20,
      fill: false,
      createdBy: 'u',
      createdAt: '2026-03-01T00:00:00.000Z',
    });
    ids = await addLlmPapers(app, '2026-03-01T12:00:00Z', 20); // four messages of five
  });
  afterEach(async () => {
    await platform.close();
    await app.dispose();
  });

  it('a 6-minute outage, then back: every paper once, none counted as sent while refused', async () => {
    // The platform answers part 2 with a 503, then refuses connections from 09:00:30 to 09:06:30.
    platform.fault((n) => (n === 1 ? { status: 503 } : undefined));
    await runDue(minutes(0));
    await platform.down();
    for (let m = 1; m <= 6; m++) await runDue(minutes(m));
    // Refused means not sent: part 2 is neither counted nor in doubt, just waiting.
    expect(await app.digests.run(1, minutes(0))).toMatchObject({ partsDone: 1, inFlight: false, lastError: expect.stringMatching(/ECONNREFUSED/) });
    await platform.up();
    for (let m = 7; m <= 25; m++) await runDue(minutes(m));
    expect(platform.papersIn(channel)).toHaveLength(4);
    await expectEachOnce(ids);
    expect((await app.digests.run(1, minutes(0)))!.state).toBe('done');
  });

  it('an outage longer than the retries: the parts never posted go out in the next day’s digest', async () => {
    platform.fault((n) => (n === 1 ? { status: 503 } : undefined));
    await runDue(minutes(0));
    await platform.down();
    for (let m = 1; m <= 30; m++) await runDue(minutes(m));
    for (let m = 60; m < 23 * 60; m += 30) await runDue(minutes(m));
    expect((await app.digests.run(1, minutes(0)))!.state).toBe('failed');
    await platform.up();
    const more = await addLlmPapers(app, '2026-03-02T12:00:00Z', 2);
    await runDue(minutes(24 * 60));
    expect(platform.papersIn(channel).map((p) => p.length)).toEqual([5, 5, 5, 5, 2]);
    await expectEachOnce([...ids, ...more]);
  });

  it.each([
    ['a slow answer (35 s, scaled: the client gives up after 300 ms)', { hold: new Promise(() => undefined) }],
    ['a connection reset after the post was written', { reset: true as const }],
  ])('%s: unknown, found in the channel, not posted again', async (_what, fault) => {
    platform.fault((n) => (n === 1 ? fault : undefined));
    const first = await runDue(minutes(0), { sender: platform.sender({ timeoutMs: 300 }) });
    expect(first.retrying).toBe(1);
    expect(await app.digests.run(1, minutes(0))).toMatchObject({ partsDone: 1, inFlight: true });
    // Past Discord's nonce window too: both platforms look in the channel.
    expect((await runDue(minutes(3))).sent).toBe(1);
    expect(platform.postCount()).toBe(4);
    await expectEachOnce(ids);
  });

  it('an answer lost before the platform kept the post: unknown, not in the channel, posted again once', async () => {
    platform.fault((n) => (n === 1 ? { swallow: true } : undefined));
    await runDue(minutes(0), { sender: platform.sender({ timeoutMs: 300 }) });
    expect(await app.digests.run(1, minutes(0))).toMatchObject({ partsDone: 1, inFlight: true });
    expect((await runDue(minutes(3))).sent).toBe(1);
    expect(platform.postCount()).toBe(5);
    await expectEachOnce(ids);
  });

  it('a long 429, and the next run-due while it lasts: rescheduled, never slept through, each part once', async () => {
    platform.fault((n) => (n === 1 ? { retryAfter: 75 } : undefined));
    const clock = new FakeClock(minutes(0));
    expect((await runDue(minutes(0), { clock })).retrying).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect((await app.digests.run(1, minutes(0)))!.nextAttemptAt! > minutes(1)).toBe(true);
    expect(await runDue(minutes(1))).toMatchObject({ retrying: 1, sent: 0 });
    expect(platform.postCount()).toBe(2);
    expect((await runDue(minutes(2))).sent).toBe(1);
    await expectEachOnce(ids);
  });

  it('a short 429 waited out while another run-due starts: the other leaves the run alone', async () => {
    platform.fault((n) => (n === 1 ? { retryAfter: 30 } : undefined));
    const sleepy = new GatedClock(minutes(0));
    const first = runDue(minutes(0), { clock: sleepy, owner: 'first' });
    await sleepy.asleep;
    const second = await runDue(minutes(1), { owner: 'second' });
    expect(second).toMatchObject({ busy: 1, sent: 0 });
    sleepy.wake();
    expect((await first).sent).toBe(1);
    expect(sleepy.sleeps[0]).toBeGreaterThanOrEqual(30_000);
    expect(platform.postCount()).toBe(5);
    await expectEachOnce(ids);
  });
});

describe('on Discord, within the nonce window', () => {
  it('a part of unknown outcome is posted again under its nonce and Discord keeps one', async () => {
    app = await createTestApp();
    platform = await PLATFORMS[0]![1]();
    channel = platform.channel(8);
    await subscribeDiscord();
    const ids = await addLlmPapers(app, '2026-03-01T12:00:00Z', 10);
    try {
      platform.fault((n) => (n === 0 ? { reset: true } : undefined));
      await runDue(minutes(0));
      await runDue(minutes(1));
      expect(platform.postCount()).toBe(3); // part 1 twice under one nonce, part 2
      await expectEachOnce(ids);
    } finally {
      await platform.close();
      await app.dispose();
    }
  });
});

describe('on Discord, where the bot may not read the channel’s history', () => {
  it('a part of unknown outcome past the nonce window is never posted again blind: the subscription is paused saying why', async () => {
    app = await createTestApp();
    platform = await PLATFORMS[0]![1]();
    channel = platform.channel(9);
    platform.hideHistory!(channel); // Discord shows the bot an empty channel
    const sub = await subscribeDiscord();
    await addLlmPapers(app, '2026-03-01T12:00:00Z', 10);
    try {
      platform.fault((n) => (n === 0 ? { reset: true } : undefined)); // posted, the answer lost
      await runDue(minutes(0));
      for (const m of [3, 10, 30, 90]) await runDue(minutes(m));
      expect(platform.postCount()).toBe(1);
      expect(platform.papersIn(channel)).toHaveLength(1);
      expect(await app.digests.run(sub.id, minutes(0))).toMatchObject({ partsDone: 0, inFlight: true, lastError: expect.stringMatching(/Read Message History/) });
      const paused = (await app.digests.get(sub.id))!;
      expect(paused.status).toBe('paused');
      expect(pausedReasonText(paused.pausedReason, messages('en'))).toMatch(/^The bot cannot read this channel's recent messages to check whether a digest message arrived \(Discord showed no messages/);
    } finally {
      await platform.close();
      await app.dispose();
    }
  });
});

/** The subscription of the Discord-only tests, in `channel`. */
function subscribeDiscord() {
  return app.digests.subscribe({
    platform: 'discord',
    workspace: 'w',
    channel,
    query: 'topic:"deep-learning/large-language-models"',
    label: 'Deep Learning · Large Language Models',
    time: '09:00',
    timezone: 'UTC',
    days: 'daily',
    count: 20,
    fill: false,
    createdBy: 'u',
    createdAt: '2026-03-01T00:00:00.000Z',
  });
}
