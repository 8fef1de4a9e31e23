/**
 * Papers the library lacks, named where only Slack names them: a thread mention and a link
 * unfurl look them up (arXiv, OpenAlex and OpenReview answered by a loopback server) through
 * Bolt's real HTTP receiver. /paper's lookup is the adapter contract's
 * (test/adapters/contract/lookup.test.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeClock } from '../../sources/helpers/fakeClock.js';
import { fixture as arxivFixture } from '../../sources/helpers/feedServer.js';
import { Loopback, json, xml } from '../../sources/helpers/loopback.js';
import { openreviewFixture } from '../../sources/openreview/helpers.js';
import type { Json } from './fakeSlack.js';
import { fixture, startHarness, textOf, type SlackHarness } from './harness.js';

let upstream: Loopback;
let app: TestApp;
let h: SlackHarness;

beforeAll(async () => {
  upstream = await new Loopback().start();
  app = await createTestApp({
    env: { LOOKUP_UPSTREAM: 'on', ARXIV_API_URL: `${upstream.base}/api/query`, OPENALEX_API_URL: `${upstream.base}/openalex`, OPENREVIEW_API_URL: `${upstream.base}/openreview` },
    clock: new FakeClock(),
  });
  h = await startHarness(app);
});
afterAll(async () => {
  await h.stop({ fake: true });
  app.dispose();
  await upstream.stop();
});

function eventOf(name: string, event: Json): Json {
  const body = fixture(name);
  return { ...body, event_id: `Ev${Math.random().toString(36).slice(2, 10)}`, event: { ...(body.event as Json), ...event } };
}
const work = () => JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/openalex/work-10.5555-invented.2024.77.json', import.meta.url)), 'utf8')) as Json;

describe('Slack lookups of papers the library lacks', () => {
  it('answers a thread mention of a DOI with the work from OpenAlex, in the thread', async () => {
    upstream.serve({ '/openalex/works/doi:10.5555/invented.2024.77': json(work()) });
    const before = h.fake.callsOf('chat.postMessage').length;
    await h.event(eventOf('app-mention', { text: '<@U0BOT> <https://doi.org/10.5555/invented.2024.77>', ts: '1760000300.000100', thread_ts: '1760000300.000001' }));
    const call = await h.fake.waitForCall('chat.postMessage', before);
    expect(call.args).toMatchObject({ channel: 'C0GENERAL', thread_ts: '1760000300.000001' });
    expect(textOf(call.args as Json)).toContain('Folding Invented Proteins with Graph Neural Networks');
  });

  it('unfurls an OpenReview link to a paper the library lacks', async () => {
    upstream.serve({ '/openreview/notes?id=Kx7vQ2mN9a': { headers: { 'content-type': 'application/json' }, body: openreviewFixture('note-Kx7vQ2mN9a.json') } });
    const url = 'https://openreview.net/forum?id=Kx7vQ2mN9a';
    const before = h.fake.callsOf('chat.unfurl').length;
    await h.event(eventOf('link-shared', { links: [{ domain: 'openreview.net', url }], message_ts: '1760000300.000200' }));
    const args = (await h.fake.waitForCall('chat.unfurl', before)).args as Json;
    const card = (args.unfurls as Record<string, { blocks: Json[] }>)[url]!;
    expect(card.blocks[0]!.text.text).toContain('|Scaling Laws for Sparse Mixture-of-Experts Language Models>*');
    expect(JSON.stringify(card.blocks)).toContain('Oral');
  });

  it('unfurls nothing for a link arXiv does not know', async () => {
    upstream.serve({
      '/api/query?id_list=2501.99999&max_results=1': xml('<feed xmlns="http://www.w3.org/2005/Atom"><title>ArXiv Query</title></feed>'),
      '/api/query?id_list=2501.01234&max_results=1': xml(arxivFixture('api-id-2501.01234.xml')),
    });
    const before = h.fake.callsOf('chat.unfurl').length;
    await h.event(eventOf('link-shared', { links: [{ domain: 'arxiv.org', url: 'https://arxiv.org/abs/2501.99999' }], message_ts: '1760000300.000300' }));
    await vi.waitFor(() => expect(upstream.keys.filter((k) => k.includes('2501.99999'))).toHaveLength(2)); // asked, and asked again
    // The next event's unfurl is the only one: the unknown paper produced none.
    await h.event(eventOf('link-shared', { links: [{ domain: 'arxiv.org', url: 'https://arxiv.org/abs/2501.01234' }], message_ts: '1760000300.000400', unfurl_id: undefined, source: undefined }));
    const args = (await h.fake.waitForCall('chat.unfurl', before)).args as Json;
    expect(args.ts).toBe('1760000300.000400');
    expect(h.fake.callsOf('chat.unfurl').length).toBe(before + 1);
  });
});
