/**
 * `/digest subscribe` only where a digest can be posted, on every platform: refused privately,
 * saying why and where to run it, in a DM, a group DM and each place the platform lists (a
 * server that never added the bot, a channel it may not post in, a DM Slack names by its id
 * only), nothing stored, and the bot still answering after; `/digest list` in a DM says where
 * digests live; in a channel the bot may post in, it subscribes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Place, Session } from './driver.js';
import { DRIVERS } from './drivers.js';

const IN_A_DM = 'Digests are posted in channels, and this is a direct message. Run /digest subscribe in the channel that should get the papers.';
const IN_A_GROUP = 'Digests are posted in channels, and this is a group conversation. Run /digest subscribe in the channel that should get the papers.';

describe.each(DRIVERS)('$name', (driver) => {
  let app: TestApp;
  let session: Session;
  beforeAll(async () => {
    app = await createTestApp();
    session = await driver.start(app);
  });
  afterAll(async () => {
    await session?.stop();
    await app?.dispose();
  });
  afterEach(() => session.expectWellBehaved());

  /** The command's answer where it was typed, by someone who may manage digests; then a /help, to see the bot still answers. */
  async function digest(text: string, place: Place) {
    const answer = await session.command(`/digest ${text}`, { place, manager: true });
    const next = await session.command('/help');
    expect(next.shown.length).toBeGreaterThan(0);
    return answer;
  }

  const refusals: Array<[string, Place, string]> = [['a DM with the bot', driver.places.dm, IN_A_DM], ['a group DM', driver.places.groupDm, IN_A_GROUP], ...driver.refusals];

  it.each(refusals)('refuses /digest subscribe in %s, privately, saying why and where', async (_, place, text) => {
    const answer = await digest('subscribe topic:llm time:09:00', place);
    expect(answer.private).toBe(true);
    expect(answer.said).toBe(text);
    expect(answer.text).toBe(text);
    expect(await app.digests.forChannel(driver.name, place.channel)).toEqual([]);
  });

  it('answers /digest list in a DM with where digests live', async () => {
    const answer = await digest('list', driver.places.dm);
    expect(answer.private).toBe(true);
    const text = 'Digests are posted in channels, so this conversation has none. Run /digest list in a channel to see its digests, or /digest subscribe there to start one.';
    expect(answer.said).toBe(text);
    expect(answer.text).toBe(text);
  });

  it('subscribes in a channel where the bot may post', async () => {
    const place = driver.places.channel(1);
    const answer = await digest('subscribe topic:llm time:09:00', place);
    expect(answer.said).toMatch(/^Subscribed: Deep Learning · Large Language Models, every day at 09:00 UTC/);
    expect(answer.text).toMatch(/^Subscribed: Deep Learning · Large Language Models, every day at 09:00 UTC/);
    expect(await app.digests.forChannel(driver.name, place.channel)).toHaveLength(1);
  });
});
