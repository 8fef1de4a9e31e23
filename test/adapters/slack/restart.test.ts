/**
 * Buttons outlive the process: a search answered by one run of the bot pages, opens and shares
 * in the next run, on the same DATA_DIR (the state behind the buttons is in SQLite).
 */
import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { SHARE_LABEL } from '../../../adapters/slack/render.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { limitViolations } from './blockKitLimits.js';
import { button, clickPayload, menu, startHarness, textOf } from './harness.js';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const app of opened) await app.close();
  if (opened[0]) rmSync(opened[0].dataDir, { recursive: true, force: true });
});

it('pages, opens and shares a search after the bot restarted between the search and the click', async () => {
  const before = await createTestApp();
  opened.push(before);
  const first = await startHarness(before);
  const res = await first.command('/paper', 'learning');
  const [results] = await first.fake.waitForPosts(res.responseUrl);
  expect(textOf(results!)).toContain('page 1 of');

  // Stop the adapter and close the core (database and all); then start both again on the same DATA_DIR.
  await first.stop();
  await before.close();
  opened.pop();
  const after = await createTestApp({ dataDir: before.dataDir, empty: true });
  opened.push(after);
  const second = await startHarness(after, first.fake);
  try {
    const next = await second.action(clickPayload(button(results!, 'Next ▶')));
    expect(next.status).toBe(200);
    const [page2] = await second.fake.waitForPosts(next.responseUrl);
    expect(page2).toMatchObject({ replace_original: true });
    expect(textOf(page2!)).toContain('page 2 of');
    expect(textOf(page2!)).toMatch(/\|6\. /);
    expect(limitViolations(page2!)).toEqual([]);

    const select = menu(results!);
    const open = await second.action(clickPayload(select, { selected: select.options[1] }));
    const [detail] = await second.fake.waitForPosts(open.responseUrl);
    expect(textOf(detail!)).toContain(select.options[1].text.text.replace(/^2\. /, '').replace(/…$/, ''));

    const shares = second.fake.callsOf('chat.postMessage').length;
    await second.action(clickPayload(button(results!, SHARE_LABEL)));
    const shared = await second.fake.waitForCall('chat.postMessage', shares);
    expect(textOf(shared.args)).toContain('Papers for “learning”');
  } finally {
    await second.stop({ fake: true });
  }
});
