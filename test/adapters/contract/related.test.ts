/**
 * /paper like:<text> on every platform, typed as the platform delivers it (Slack: the words
 * after /paper; Discord: the `like` option): related work, headed by the start of the text,
 * paged with Prev/Next; a text of mentions and markup pings no one and shows as text; a text
 * with nothing to read is a one-line hint. The box for a long text is a button where the
 * platform has dialogs (Discord), and left out where it has none (Slack, which takes the text
 * after the command instead).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Session } from './driver.js';
import { DRIVERS } from './drivers.js';

/** A paragraph of a survey, close to a dozen of the fixture's papers: pages of them. */
const SURVEY =
  'Offline reinforcement learning learns policies from previously collected data with expectile regression. Graph attention lets nodes weigh their neighbours. Residual connections train very deep convolutional networks. Promptable segmentation masks transfer zero-shot. A generator and a discriminator play a minimax game. Masked language modeling pre-trains bidirectional representations.';

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

  it('answers /paper like:<text> with related work that pages', async () => {
    // As many as the library finds (at most 50), five a page.
    const found = (await app.library.related(SURVEY, { limit: 50 })).hits.length;
    expect(found).toBeGreaterThan(10);
    const pages = Math.ceil(found / 5);
    const first = await session.command(`/paper like: ${SURVEY}`);
    expect(first.heading).toBe('Related work for “Offline reinforcement learning learns policies from previously collected data…”');
    expect(first.subtitle).toBe(`${found} papers · page 1 of ${pages}`);
    expect(first.sections[0]!.title).toMatch(/^1\. /);
    expect(first.buttons.some((b) => b.label === 'Paste a text…')).toBe(driver.name === 'discord');
    const second = await session.press(first, 'Next ▶');
    expect(second.heading).toBe(first.heading);
    expect(second.subtitle).toBe(`${found} papers · page 2 of ${pages}`);
    expect(second.sections[0]!.title).toMatch(/^6\. /);
  });

  it('shows a text of mentions and markup as text, pinging no one', async () => {
    const seen = await session.command(`/paper like: @everyone <!channel> <@123> **bold** [x](https://evil.example) ${SURVEY}`);
    expect(seen.heading).toMatch(/^Related work for “@.*everyone .*…”$/);
    expect(seen.sections.length).toBeGreaterThan(0);
    // The message's own text echoes the markup as the platform shows text, not as a mention.
    expect(seen.text).toContain(driver.literal('<!channel>'));
    expect(seen.text).toContain(driver.literal('<@123>'));
  });

  it('answers a text with nothing to read with a one-line hint, privately', async () => {
    for (const typed of ['/paper like:', '/paper like: ... !!! ???']) {
      const seen = await session.command(typed);
      expect(seen.private, typed).toBe(true);
      expect(seen.said, typed).toBe('Paste the text to find related work for after like: an abstract or a paragraph, in English or Chinese.');
    }
  });
});
