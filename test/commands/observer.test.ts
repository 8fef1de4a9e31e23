/**
 * What the core tells its observer (the metrics of `npm start`): every command, button and
 * autocomplete with its outcome, under a bounded set of names, and every search's latency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandEvent } from '../../src/observer.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
const commands: CommandEvent[] = [];
const searches: Array<{ seconds: number; hits: number }> = [];

beforeAll(async () => {
  app = await createTestApp({ observer: { command: (e) => void commands.push(e), search: (e) => void searches.push(e) } });
});
afterAll(() => app.dispose());

describe('the observer', () => {
  it('hears each command with its outcome: a reply, a user error, a failure of ours', async () => {
    const ctx = app.context('slack', { id: 'U1' });
    const reply = await app.registry.runText(ctx, 'paper', 'diffusion');
    await app.registry.runText(ctx, 'topic', 'zzqx qqzv');
    await app.registry.runText(ctx, 'Nonsense-Command-42', 'x');
    const next = reply.buttons?.flat().find((b) => /Next/.test(b.label) && b.action)?.action ?? 'paper:page:x:1';
    await app.registry.act(ctx, next);
    await app.registry.act(ctx, 'zzz:what:1');
    app.registry.autocomplete(ctx, 'paper', 'query', 'diff');
    const broken = { ...ctx, library: { ...ctx.library, search: () => { throw new Error('index gone'); } } } as unknown as typeof ctx;
    await app.registry.run(broken, 'paper', { query: 'diffusion' });

    expect(commands.map(({ platform, command, kind, outcome }) => `${platform} ${kind} ${command} ${outcome}`)).toEqual([
      'slack command paper ok',
      'slack command topic user_error',
      'slack command unknown user_error',
      'slack action paper ok',
      'slack action unknown user_error',
      'slack autocomplete paper ok',
      'slack command paper error',
    ]);
    for (const e of commands) expect(e.seconds).toBeGreaterThanOrEqual(0);
  });

  it('hears each search with its latency and hit count', async () => {
    searches.length = 0;
    const result = await app.library.search('attention');
    expect(searches).toEqual([{ seconds: expect.any(Number), hits: result.hits.length }]);
    expect(searches[0]!.seconds).toBeLessThan(1);
  });
});
