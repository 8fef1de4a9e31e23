/**
 * Hostile papers through the whole path on every platform (import → search → the platform's
 * SDK → the loopback fake): every results page and every paper opened from them, for a
 * generated corpus of markup, mentions and broken links and for papers built to break every
 * limit at once. Each message must be one the platform takes (within its limits, pinging no
 * one), show the hostile text literally, and use its budget rather than break it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';
import type { Seen, Session } from './driver.js';
import { DRIVERS } from './drivers.js';
import { generatedHostilePapers, writePapers, zebraPapers } from './hostilePapers.js';

const CORPORA = [
  { corpus: 'a generated hostile corpus', papers: generatedHostilePapers, withFixture: true, query: 'hostile paper', atLeast: 21, markup: '<!channel>' },
  { corpus: 'papers built to break every limit', papers: zebraPapers, withFixture: false, query: 'zebra', atLeast: 15, markup: '<@123>' },
];

describe.each(DRIVERS)('$name', (driver) => {
  describe.each(CORPORA)('$corpus', ({ papers, withFixture, query, atLeast, markup }) => {
    let corpus: ReturnType<typeof writePapers>;
    let app: TestApp;
    let session: Session;
    beforeAll(async () => {
      const written = papers();
      corpus = writePapers(written);
      app = await createTestApp({ paths: [...(withFixture ? [FIXTURE_PAPERS] : []), corpus.file] });
      expect(app.library.size).toBe((withFixture ? 29 : 0) + written.length);
      session = await driver.start(app);
    });
    afterAll(async () => {
      await session?.stop();
      await app?.dispose();
      corpus?.remove();
    });
    afterEach(() => session.expectWellBehaved());

    it('keeps every page and every paper opened from it within the platform’s limits', async () => {
      const messages: Seen[] = [];
      let page: Seen | undefined = await session.command(`/paper ${query}`);
      for (let pages = 0; page && pages < 12; pages++) {
        messages.push(page);
        for (let i = 0; i < (page.menu?.options.length ?? 0); i++) messages.push(await session.choose(page, i));
        page = page.buttons.some((b) => b.label === 'Next ▶' && !b.disabled) ? await session.press(page, 'Next ▶') : undefined;
      }
      expect(messages.length).toBeGreaterThanOrEqual(atLeast);
      // Something hostile really went through, shown as text…
      expect(messages.some((m) => m.shown.includes(driver.literal(markup)))).toBe(true);
      // …and pressed against the size budget, which the renderer met by giving up detail.
      expect(Math.max(...messages.map((m) => driver.size(m)))).toBeGreaterThan(driver.nearBudget);
    });
  });
});
