/**
 * /digest on Slack where a digest could never be posted (a DM, a group DM), through Bolt's HTTP
 * receiver with signed requests: refused privately, saying why and where to run it; in a channel
 * it subscribes as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Json } from './fakeSlack.js';
import { startHarness, type SlackHarness } from './harness.js';

let app: TestApp;
let h: SlackHarness;
beforeAll(async () => {
  app = await createTestApp();
  h = await startHarness(app);
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
});

async function digest(text: string, channel: Record<string, string>): Promise<Json> {
  const res = await h.command('/digest', text, channel);
  expect(res.status).toBe(200);
  const [post] = await h.fake.waitForPosts(res.responseUrl);
  return post!;
}

const DM = { channel_id: 'D0ALICEBOT', channel_name: 'directmessage' };
const GROUP_DM = { channel_id: 'G0TRIO', channel_name: 'mpdm-alice--bob--carol-1' };

describe('/digest on Slack', () => {
  it.each([
    ['a DM', DM, 'Digests are posted in channels, and this is a direct message. Run /digest subscribe in the channel that should get the papers.'],
    ['a DM named only by its id', { channel_id: 'D0ALICEBOB', channel_name: 'privategroup' }, 'Digests are posted in channels, and this is a direct message. Run /digest subscribe in the channel that should get the papers.'],
    ['a group DM', GROUP_DM, 'Digests are posted in channels, and this is a group conversation. Run /digest subscribe in the channel that should get the papers.'],
  ])('refuses subscribe in %s, privately, saying why and where', async (_, channel, text) => {
    const post = await digest('subscribe topic:llm time:09:00', channel);
    expect(post).toMatchObject({ response_type: 'ephemeral', text });
    expect(await app.digests.forChannel('slack', channel.channel_id)).toEqual([]);
  });

  it('answers list in a DM with where digests live', async () => {
    const post = await digest('list', DM);
    expect(post).toMatchObject({ response_type: 'ephemeral', text: 'Digests are posted in channels, so this conversation has none. Run /digest list in a channel to see its digests, or /digest subscribe there to start one.' });
  });

  it('subscribes in a channel', async () => {
    const post = await digest('subscribe topic:llm time:09:00', { channel_id: 'C0PAPERS', channel_name: 'papers' });
    expect(post.text).toMatch(/^Subscribed: Deep Learning · Large Language Models, every day at 09:00 /);
    expect(await app.digests.forChannel('slack', 'C0PAPERS')).toHaveLength(1);
  });
});
