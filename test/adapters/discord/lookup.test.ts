/**
 * /paper on Discord naming a paper the library lacks: the lookup takes longer than Discord's
 * 3 s allow, so the adapter defers first and edits the paper in when arXiv answers (held back
 * by the test until the deferral is seen). Through discord.js and the loopback Discord.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeClock } from '../../sources/helpers/fakeClock.js';
import { fixture } from '../../sources/helpers/feedServer.js';
import { Loopback, gate, xml } from '../../sources/helpers/loopback.js';
import { expectWellBehaved, startBot } from './harness.js';
import { slashCommand } from './payloads.js';

let upstream: Loopback;
let app: TestApp;

beforeAll(async () => {
  upstream = await new Loopback().start();
  app = await createTestApp({ env: { LOOKUP_UPSTREAM: 'on', ARXIV_API_URL: `${upstream.base}/api/query` }, clock: new FakeClock() });
});
afterAll(async () => {
  app.dispose();
  await upstream.stop();
});

describe('Discord /paper for a paper the library lacks', () => {
  it('defers while arXiv is asked, then edits in the paper', async () => {
    const held = gate();
    upstream.serve({ '/api/query?id_list=2501.01234&max_results=1': { ...xml(fixture('api-id-2501.01234.xml')), hold: held.hold } });
    const bot = await startBot(app, { deferAfterMs: 10 });
    try {
      const payload = slashCommand(bot.fake, 'paper', { query: 'https://arxiv.org/abs/2501.01234' });
      const deferred = await bot.fake.interact(payload);
      expect(deferred.body).toEqual({ type: 5, data: { flags: 0 } });
      await vi.waitFor(() => expect(upstream.requests).toHaveLength(1)); // arXiv asked, its answer held back
      held.release();
      const edit = await bot.fake.waitFor((r) => r.token === payload.token && r.kind === 'edit');
      expect(JSON.stringify(edit.body)).toContain('Quasicrystalline Tilings Learned by Equivariant Flow Matching');
      expect(edit.body.content).toContain('fetched from arXiv and added');
      expectWellBehaved(bot.fake);
    } finally {
      await bot.stop();
    }
  });
});
