/**
 * /paper naming a paper the library lacks, on every platform: the lookup takes longer than the
 * platform waits for an acknowledgement, so the adapter acknowledges first (Discord: a deferral;
 * Slack: an empty 200) and answers with the paper once arXiv has (its answer held back by the
 * test until the acknowledgement is in).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeClock } from '../../sources/helpers/fakeClock.js';
import { fixture } from '../../sources/helpers/feedServer.js';
import { Loopback, gate, xml } from '../../sources/helpers/loopback.js';
import type { Session } from './driver.js';
import { DRIVERS } from './drivers.js';

describe.each(DRIVERS)('$name', (driver) => {
  let upstream: Loopback;
  let app: TestApp;
  let session: Session;
  beforeAll(async () => {
    upstream = await new Loopback().start();
    app = await createTestApp({ env: { LOOKUP_UPSTREAM: 'on', ARXIV_API_URL: `${upstream.base}/api/query` }, clock: new FakeClock() });
    session = await driver.start(app, { deferAfterMs: 10 });
  });
  afterAll(async () => {
    await session?.stop();
    await app?.dispose();
    await upstream?.stop();
  });
  afterEach(() => session.expectWellBehaved());

  it('acknowledges /paper for a paper the library lacks while arXiv is asked, then answers with it', async () => {
    const held = gate();
    upstream.serve({ '/api/query?id_list=2501.01234&max_results=1': { ...xml(fixture('api-id-2501.01234.xml')), hold: held.hold } });
    const sent = await session.send('/paper https://arxiv.org/abs/2501.01234');
    expect(sent.deferred).toBe(true);
    await vi.waitFor(() => expect(upstream.requests).toHaveLength(1)); // arXiv asked, its answer held back
    held.release();
    const answer = await sent.answer();
    expect(answer.sections[0]?.title).toBe('Quasicrystalline Tilings Learned by Equivariant Flow Matching');
    expect(answer.notes).toContain('Not in the library yet: fetched from arXiv and added.');
    expect(await app.store.get('arxiv:2501.01234')).toBeDefined();
  });
});
