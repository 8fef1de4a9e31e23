/**
 * Action handles come from requests (a button's value, a menu choice, a Share origin): the
 * registry finds a handler only among the verbs a command declares, never among what every
 * object inherits, and anything that is no handle, no text at all included, is a button that
 * does nothing here.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandEvent } from '../../src/observer.js';
import { parseAction } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { PROTOTYPE_NAMES, hostileHandles } from './hostileHandles.js';

const STALE = 'That button no longer does anything here. Run the command again.';

let app: TestApp;
const outcomes: CommandEvent[] = [];
beforeAll(async () => {
  app = await createTestApp({ observer: { command: (e) => outcomes.push(e), search: () => undefined } });
});
afterAll(() => app.dispose());

const ctx = () => app.context('slack', { id: 'U-ANA', name: 'Ana' }, { channel: { id: 'C-LAB', name: 'lab', kind: 'channel' }, workspace: { id: 'T1' }, member: { isAdmin: false } });

describe('parseAction', () => {
  it.each([
    ['paper:page:k3f9x2:2', { command: 'paper', verb: 'page', args: ['k3f9x2', '2'] }],
    ['paper:constructor', { command: 'paper', verb: 'constructor', args: [] }],
    ['paper', undefined],
    ['paper:', undefined],
    [':page', undefined],
    ['', undefined],
    ['x'.repeat(101), undefined],
    [42, undefined],
    [null, undefined],
    [undefined, undefined],
    [{ toString: () => 'paper:page:a:1' }, undefined],
    [['paper:page:a:1'], undefined],
  ])('%j → %j', (handle, parsed) => {
    expect(parseAction(handle)).toEqual(parsed);
  });
});

describe('registry.act', () => {
  it.each(PROTOTYPE_NAMES)('finds no handler named %s, as a command or as a verb', async (name) => {
    for (const handle of hostileHandles(name)) {
      expect(await app.registry.act(ctx(), handle), handle).toMatchObject({ ephemeral: true, fallback: STALE });
    }
  });

  it('answers anything at all, of any type, without an apology (property)', async () => {
    const handles = fc.oneof(
      fc.anything(),
      fc.constantFrom(...PROTOTYPE_NAMES.flatMap(hostileHandles)),
      fc.tuple(fc.constantFrom('paper', 'topic', 'digest', 'library', 'help', ...PROTOTYPE_NAMES), fc.constantFrom(...PROTOTYPE_NAMES), fc.string()).map((parts) => parts.join(':')),
    );
    await fc.assert(
      fc.asyncProperty(handles, async (handle) => {
        const reply = await app.registry.act(ctx(), handle);
        expect(reply.fallback).not.toMatch(/went wrong/);
      }),
      { numRuns: 300 },
    );
    expect(outcomes.filter((e) => e.outcome === 'error')).toEqual([]);
  });
});
