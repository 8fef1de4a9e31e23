/**
 * Shared links go through the command registry as commands do: `/paper`'s unfurl answers each
 * one, under the registry's error policy and metrics. A lookup that fails (a real lookup whose
 * store cannot take the paper it fetched: the library opened read-only) unfurls as the apology
 * with a reference, logged under that reference and counted as an error.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { messages } from '../../../src/i18n/index.js';
import type { CommandEvent } from '../../../src/observer.js';
import { UpstreamLookup } from '../../../src/sources/lookup.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { silentLog } from '../../helpers/corpus.js';
import { FakeClock } from '../../sources/helpers/fakeClock.js';
import { fixture as arxivFixture } from '../../sources/helpers/feedServer.js';
import { Loopback, xml } from '../../sources/helpers/loopback.js';
import type { Json } from './fakeSlack.js';
import { fixture, startHarness, type SlackHarness } from './harness.js';

let upstream: Loopback;
let app: TestApp;
let readOnly: SqlitePaperStore;
let h: SlackHarness;
const events: CommandEvent[] = [];
const lines: Array<{ level: number; msg: string; reference?: string; unfurl?: string }> = [];

beforeAll(async () => {
  upstream = await new Loopback().start();
  const env = { LOOKUP_UPSTREAM: 'on', ARXIV_API_URL: `${upstream.base}/api/query`, OPENALEX_API_URL: `${upstream.base}/openalex`, OPENREVIEW_API_URL: `${upstream.base}/openreview` };
  app = await createTestApp({ env, clock: new FakeClock(), observer: { command: (e) => void events.push(e), search: () => undefined } });
  readOnly = new SqlitePaperStore(openDatabase(app.config.dbPath, { readOnly: true }), { ownsDatabase: true });
  const lookup = new UpstreamLookup({ store: readOnly, classify: app.classify, clock: new FakeClock(), log: silentLog, config: app.config });
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  // Every context the Slack adapter makes looks papers up through the read-only store, and logs here.
  const served: App = { ...app, context: (platform, user, extra) => app.context(platform, user, { ...extra, lookup, log }) };
  h = await startHarness(served);
});
afterAll(async () => {
  await h.stop({ fake: true });
  await readOnly.close();
  await app.dispose();
  await upstream.stop();
});

async function unfurl(url: string, messageTs: string): Promise<Json[]> {
  const before = h.fake.callsOf('chat.unfurl').length;
  const body = fixture('link-shared');
  await h.event({ ...body, event_id: `Ev${messageTs}`, event: { ...(body.event as Json), links: [{ domain: new URL(url).hostname, url }], message_ts: messageTs, unfurl_id: undefined, source: undefined } });
  const args = (await h.fake.waitForCall('chat.unfurl', before)).args as Json;
  return (args.unfurls as Record<string, { blocks: Json[] }>)[url]!.blocks;
}

describe('unfurls through the command registry', () => {
  it('unfurls a held paper as its card, counted as /paper’s unfurl', async () => {
    const blocks = await unfurl('https://arxiv.org/abs/1706.03762', '1760000400.000100');
    expect(blocks[0]!.text.text).toContain('|Attention Is All You Need>*');
    expect(events.at(-1)).toMatchObject({ platform: 'slack', kind: 'unfurl', command: 'paper', outcome: 'ok' });
  });

  it('unfurls a failed lookup as the apology with a reference, logged under it and counted as an error', async () => {
    upstream.serve({ '/api/query?id_list=2501.01234&max_results=1': xml(arxivFixture('api-id-2501.01234.xml')) });
    const blocks = await unfurl('https://arxiv.org/abs/2501.01234', '1760000400.000200');
    expect(upstream.keys).toEqual(['/api/query?id_list=2501.01234&max_results=1']);
    const text = JSON.stringify(blocks);
    const reference = /reference ([0-9a-f]{8})/.exec(text)?.[1];
    expect(reference).toBeDefined();
    expect(text).toContain(messages('en').t('error.apology', { reference: reference! }));
    expect(lines.find((l) => l.reference === reference)).toMatchObject({ level: 50, msg: 'command failed', unfurl: 'https://arxiv.org/abs/2501.01234' });
    expect(events.at(-1)).toMatchObject({ platform: 'slack', kind: 'unfurl', command: 'paper', outcome: 'error' });
    expect(await app.store.get('arxiv:2501.01234')).toBeUndefined();
  });
});
