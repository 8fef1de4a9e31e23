/**
 * Events whose parts are not what Slack sends, signed as Slack signs them: a link_shared whose
 * links are no list, or hold something that is no link, is acknowledged and leaves no error
 * behind; the real links among them are still unfurled.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Json } from './fakeSlack.js';
import { fixture, startHarness, type SlackHarness } from './harness.js';

let app: TestApp;
let h: SlackHarness;
const errors: string[] = [];
beforeAll(async () => {
  app = await createTestApp();
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line).msg) });
  h = await startHarness({ ...app, log });
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
});

let serial = 0;
function shared(links: unknown): Json {
  const body = fixture('link-shared');
  return { ...body, event_id: `Ev0HOSTILE${++serial}`, event: { ...(body.event as Json), links } };
}

describe('link_shared with links Slack never sends', () => {
  it.each([
    ['null', null],
    ['a string', 'https://arxiv.org/abs/1706.03762'],
    ['an object', { url: 'https://arxiv.org/abs/1706.03762' }],
    ['a list of nulls and numbers', [null, 42, [], { url: 42 }, { url: null }]],
  ])('links as %s: acknowledged, nothing unfurled, no error', async (_, links) => {
    const before = h.fake.callsOf('chat.unfurl').length;
    expect((await h.event(shared(links))).status).toBe(200);
    // A real link shared after it is unfurled: the hostile one was handled by then.
    const after = shared([{ domain: 'arxiv.org', url: 'https://arxiv.org/abs/1706.03762' }]);
    await h.event(after);
    await h.fake.waitForCall('chat.unfurl', before);
    expect(h.fake.callsOf('chat.unfurl').length).toBe(before + 1);
    expect(errors).toEqual([]);
  });

  it('unfurls the real links among ones that are not', async () => {
    const before = h.fake.callsOf('chat.unfurl').length;
    await h.event(shared([null, { url: 42 }, { domain: 'arxiv.org', url: 'https://arxiv.org/abs/1706.03762' }]));
    await h.fake.waitForCall('chat.unfurl', before);
    expect(JSON.stringify(h.fake.callsOf('chat.unfurl').at(-1)!.args)).toContain('1706.03762');
    expect(errors).toEqual([]);
  });
});
