/**
 * Button values are request text: a click whose handle names something every object inherits
 * (`paper:constructor`, `library:hasOwnProperty`, `__proto__:page`) or whose value or action_id
 * is no text at all goes through Bolt's receiver, signed as Slack signs it, and is answered as a
 * button that does nothing here: privately, at once, with what to do. Never a TypeError, never
 * an apology, never silence.
 */
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandEvent } from '../../../src/observer.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';
import { PROTOTYPE_NAMES, hostileHandles } from '../../commands/hostileHandles.js';
import { clickPayload, startHarness, type SlackHarness } from './harness.js';

const STALE = 'That button no longer does anything here. Run the command again.';

let app: TestApp;
let h: SlackHarness;
/** The adapter's log lines at warn and above, and every click's outcome as the registry counted it. */
const warnings: string[] = [];
const outcomes: CommandEvent[] = [];
beforeAll(async () => {
  app = await createTestApp({ paths: [FIXTURE_PAPERS], observer: { command: (e) => outcomes.push(e), search: () => undefined } });
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
  h = await startHarness({ ...app, log });
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
});

/** A click on a button with this action_id and value; what reached its response_url. */
async function click(actionId: unknown, value: unknown): Promise<{ status: number; text: unknown }> {
  const res = await h.action(clickPayload({ type: 'button', action_id: actionId, text: { type: 'plain_text', text: 'Next ▶' }, value }));
  const [post] = await h.fake.waitForPosts(res.responseUrl, 1, 3000);
  expect(post).toMatchObject({ response_type: 'ephemeral', replace_original: false });
  return { status: res.status, text: post!.text };
}

describe('button values naming what every object inherits', () => {
  it.each(PROTOTYPE_NAMES)('%s as a command, a verb or both is a button that does nothing here', async (name) => {
    for (const value of hostileHandles(name)) {
      expect(await click('ps:act:1', value), value).toEqual({ status: 200, text: STALE });
    }
  });

  it('a menu choice naming one is answered the same', async () => {
    const menu = { type: 'static_select', action_id: 'ps:menu', placeholder: { type: 'plain_text', text: 'Open' } };
    for (const name of PROTOTYPE_NAMES) {
      const res = await h.action(clickPayload(menu, { selected: { text: { type: 'plain_text', text: 'x' }, value: `paper:${name}:1` } }));
      const [post] = await h.fake.waitForPosts(res.responseUrl, 1, 3000);
      expect(post!.text).toBe(STALE);
    }
  });

  it('a Share button whose origin names one is answered the same', async () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(await click('ps:share', `act:library:${name}`)).toEqual({ status: 200, text: STALE });
    }
  });
});

describe('values and action ids that are no text', () => {
  const notText: unknown[] = [42, 0, -1.5, true, false, null, {}, [], ['paper:page:x:1'], { toString: 'paper:page:x:1' }, { value: 'paper:open:1' }];

  it('a button value that is no text is a button that does nothing here', async () => {
    for (const value of notText) expect(await click('ps:act:1', value), JSON.stringify(value)).toEqual({ status: 200, text: STALE });
  });

  it('an action_id that is no text, or none of ours, is acknowledged at once and answered the same', async () => {
    for (const actionId of [...notText, 'zz:1', '', 'constructor', '__proto__']) {
      const res = await h.action(clickPayload({ type: 'button', action_id: actionId, text: { type: 'plain_text', text: 'x' }, value: 'paper:page:x:1' }));
      expect(res.status, JSON.stringify(actionId)).toBe(200);
      expect(res.ms).toBeLessThan(2000);
      const [post] = await h.fake.waitForPosts(res.responseUrl, 1, 3000);
      expect(post!.text).toBe(STALE);
    }
  });

  it('a menu choice whose option or value is no text is answered the same', async () => {
    const menu = { type: 'static_select', action_id: 'ps:menu', placeholder: { type: 'plain_text', text: 'Open' } };
    for (const selected of [null, 42, 'paper:open:1', { value: 42 }, { value: null }, { value: {} }]) {
      const res = await h.action(clickPayload(menu, { selected: selected as Record<string, unknown> }));
      const [post] = await h.fake.waitForPosts(res.responseUrl, 1, 3000);
      expect(post!.text, JSON.stringify(selected)).toBe(STALE);
    }
  });

  it('a click whose action is no element at all is answered the same', async () => {
    for (const actions of [[42], ['ps:act:1'], [[]], [true]]) {
      const res = await h.action({ ...clickPayload({ type: 'button', action_id: 'ps:act:1', value: 'paper:page:x:1' }), actions });
      expect(res.status, JSON.stringify(actions)).toBe(200);
      const [post] = await h.fake.waitForPosts(res.responseUrl, 1, 3000);
      expect(post!.text).toBe(STALE);
    }
  });

  it('a click without an action Bolt can read is refused at once, and the next click is answered', async () => {
    for (const actions of [null, [], [null], undefined]) {
      const res = await h.action({ ...clickPayload({ type: 'button', action_id: 'ps:act:1', value: 'paper:page:x:1' }), actions });
      expect(res.status, JSON.stringify(actions)).toBe(400);
      expect(res.ms).toBeLessThan(2000);
    }
    expect(await click('ps:act:1', 'paper:constructor')).toEqual({ status: 200, text: STALE });
    // Refusals are logged once a minute, with a count of those left out.
    expect(warnings.map((w) => JSON.parse(w).msg)).toEqual(['Slack: refused a signed request whose body cannot be read (400)']);
    warnings.length = 0;
  });

  it('any value at all gets one private answer and never an error (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.constantFrom(...PROTOTYPE_NAMES.flatMap(hostileHandles)), fc.string()), async (value) => {
        const res = await h.action(clickPayload({ type: 'button', action_id: 'ps:act:1', text: { type: 'plain_text', text: 'x' }, value }));
        expect(res.status).toBe(200);
        const [post] = await h.fake.waitForPosts(res.responseUrl, 1, 3000);
        expect(post!.response_type).toBe('ephemeral');
        expect(String(post!.text)).not.toMatch(/went wrong/);
      }),
      { numRuns: 60 },
    );
    expect(warnings.map((w) => JSON.parse(w).msg)).toEqual([]);
    expect(outcomes.filter((e) => e.outcome === 'error')).toEqual([]);
  });
});
