/**
 * `/library recommend` over a whole core opened on the recommendation fixture (a lab's papers,
 * a federated-learning keyword group): lists filled through the real reading-list store, pages
 * turned with the replies' own Prev/Next.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/commands/types.js';
import { RECOMMEND_PAGE_SIZE } from '../../src/commands/recommendations.js';
import type { Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const PAPERS = fileURLToPath(new URL('../fixtures/recommend/papers.jsonl', import.meta.url));
let app: TestApp;
let clock = new Date('2026-12-01T09:00:00Z');
beforeAll(async () => {
  app = await createTestApp({ paths: [PAPERS], now: () => clock });
});
afterAll(() => app.dispose());

const tick = () => (clock = new Date(clock.getTime() + 60_000));
const member = (id: string, extra: Partial<CommandContext> = {}) =>
  app.context('slack', { id, name: id }, { channel: { id: 'C-LAB', name: 'lab', kind: 'channel' }, workspace: { id: 'T1' }, member: { isAdmin: false }, ...extra });
const titles = (reply: Reply) => reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper.title] : []));
const provenances = (reply: Reply) => reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper.provenance] : []));

async function idOf(title: string): Promise<string> {
  const hit = (await app.library.search(title, { limit: 1 })).hits[0];
  expect(hit?.title).toBe(title);
  return hit!.id;
}

const LAB = ['Tactile Servoing for In-Hand Rotation of Unknown Objects', 'Learning Regrasp Policies from Fingertip Contact Maps', 'Slip Detection with Vibrotactile Arrays on a Dexterous Hand'];
const FEDERATED = ['Client Drift Correction in Federated Optimization', 'Secure Aggregation with Fewer Rounds', 'Personalized Models for Heterogeneous Clients', 'Communication-Efficient Updates by Sketching'];

/** Papers of several groups: enough alike papers for three pages and more. */
async function broad(): Promise<string[]> {
  return (await app.library.search('learning', { limit: 3 })).hits.map((h) => h.title);
}

async function save(userId: string, paperTitles: string[]) {
  for (const title of paperTitles) {
    tick();
    await app.stores.readingLists.add({ platform: 'slack', team: 'T1', kind: 'member', id: userId }, await idOf(title), { id: userId }, clock);
  }
}

describe('/library recommend', () => {
  it('says a library of fewer than 3 papers is too little, and how to add more', async () => {
    await save('U-NEW', LAB.slice(0, 2));
    const reply = await app.registry.run(member('U-NEW'), 'library', {}, 'recommend');
    expect(reply.ephemeral).toBe(true);
    expect(reply.fallback).toBe('Your library has 2 papers; recommendations need at least 3. Press Save on the papers you read (/paper finds them) and ask again.');
    const channel = await app.registry.runText(member('U-NEW', { channel: { id: 'C-EMPTY', name: 'empty', kind: 'channel' } }), 'library', 'recommend scope:channel');
    expect(channel.fallback).toMatch(/^This channel's reading list has no papers; recommendations need at least 3\. Add papers with \/library add/);
  });

  it("recommends papers like a member's library, newest first, privately, each saying why", async () => {
    await save('U-MIRA', LAB);
    const reply = await app.registry.run(member('U-MIRA'), 'library', {}, 'recommend');
    expect(reply.ephemeral).toBe(true);
    expect(reply.blocks[0]).toEqual({ kind: 'heading', text: 'Papers like your library' });
    expect(reply.blocks[1]).toEqual({ kind: 'note', text: expect.stringMatching(/^Like the 3 papers saved and shared · the most alike first, each page newest first · page 1 of \d+$/) });
    const shown = titles(reply);
    expect(shown.slice(0, 3)).toEqual(expect.arrayContaining(['Contact-Rich Reorientation with Sparse Tactile Feedback', 'Language Instructions for Bimanual Assembly']));
    for (const t of LAB) expect(shown).not.toContain(t);
    const years = reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper.year ?? 0] : []));
    expect(years).toEqual([...years].sort((a, b) => b - a));
    const contactRich = shown.indexOf('Contact-Rich Reorientation with Sparse Tactile Feedback');
    expect(provenances(reply)[contactRich]).toMatch(/^like “(Tactile Servoing|Learning Regrasp|Slip Detection)[^”]*”, \w+/);
  });

  it("ranks by a channel's list and shared links, never by a member's own library", async () => {
    const owner = { platform: 'slack', team: 'T1', kind: 'channel' as const, id: 'C-FED' };
    const ctx = member('U-MIRA', { channel: { id: 'C-FED', name: 'fed', kind: 'channel' } });
    tick();
    await app.stores.readingLists.add(owner, await idOf(FEDERATED[0]!), { id: 'U-ANA' }, clock);
    tick();
    await app.stores.readingLists.add(owner, await idOf(FEDERATED[1]!), { id: 'U-ANA' }, clock);
    tick();
    await app.stores.readingLists.recordShare('slack', 'T1', 'C-FED', { paperId: await idOf(FEDERATED[2]!), by: { id: 'U-BEN' }, at: clock, message: 'C-FED:1' });
    const reply = await app.registry.runText(ctx, 'library', 'recommend channel');
    expect(reply.ephemeral).toBeUndefined();
    expect(reply.blocks[0]).toEqual({ kind: 'heading', text: 'Papers like the reading list of #fed' });
    const shown = titles(reply);
    expect(shown.slice(0, 2).sort()).toEqual(['Backdoor Defenses for Cross-Silo Training', 'Fair Participation of Devices in Collaborative Training']);
    // Mira's own (tactile) library is hers: it does not pull her lab's papers into the channel's.
    expect(shown).not.toContain('Language Instructions for Bimanual Assembly');
  });

  it('pages five at a time with Prev/Next: the most alike first, each page newest first, numbered on', async () => {
    const seeds = await broad();
    await save('U-PAGE', seeds);
    const ctx = member('U-PAGE');
    const first = await app.registry.run(ctx, 'library', {}, 'recommend');
    const all = await app.library.recommend(await Promise.all(seeds.map(idOf)), { limit: 50 });
    if (!all.ok) throw new Error('the fixture recommends nothing');
    const pages = Math.ceil(all.hits.length / RECOMMEND_PAGE_SIZE);
    expect(pages).toBeGreaterThanOrEqual(3);
    // Page 1 holds the five most alike, as the reply did before it had pages.
    expect(titles(first).sort()).toEqual(all.hits.slice(0, 5).map((h) => h.title).sort());
    expect(first.blocks[1]).toEqual({ kind: 'note', text: `Like the 3 papers saved and shared · the most alike first, each page newest first · page 1 of ${pages}` });
    const [prev, next] = first.buttons![0]!;
    expect(prev).toEqual({ id: 'prev', label: '◀ Prev', action: expect.stringMatching(/^library:recommend:\w{10}:-1$/), disabled: true });
    expect(next).toEqual({ id: 'next', label: 'Next ▶', action: prev!.action!.replace(/-1$/, '1'), disabled: false });

    const second = await app.registry.act(ctx, next!.action!);
    expect(second.ephemeral).toBe(true);
    expect(titles(second).sort()).toEqual(all.hits.slice(5, 10).map((h) => h.title).sort());
    expect(second.blocks[1]).toMatchObject({ text: expect.stringMatching(new RegExp(`page 2 of ${pages}$`)) });
    const cards = second.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper] : []));
    expect(cards.map((c) => c.position)).toEqual([6, 7, 8, 9, 10]);
    expect(cards.map((c) => c.year ?? 0)).toEqual(cards.map((c) => c.year ?? 0).sort((a, b) => b - a));
    expect(second.menu?.choices.map((c) => c.position)).toEqual([6, 7, 8, 9, 10]);
    const [back, onward] = second.buttons![0]!;
    expect(back).toMatchObject({ disabled: false, action: prev!.action!.replace(/-1$/, '0') });
    expect(titles(await app.registry.act(ctx, back!.action!))).toEqual(titles(first));

    // The last page has no Next; a page past it (an old message) shows the last.
    const last = await app.registry.act(ctx, onward!.action!.replace(/:\d+$/, `:${pages - 1}`));
    expect(last.buttons![0]![1]).toMatchObject({ id: 'next', disabled: true });
    expect(titles(await app.registry.act(ctx, onward!.action!.replace(/:\d+$/, ':99')))).toEqual(titles(last));
  });

  it('keeps the pages it showed: a paper saved from page 1 does not shift page 2', async () => {
    await save('U-KEEP', await broad());
    const ctx = member('U-KEEP');
    const first = await app.registry.run(ctx, 'library', {}, 'recommend');
    const next = first.buttons![0]![1]!.action!;
    const before = titles(await app.registry.act(ctx, next));
    const saveFirst = first.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper.actions![0]!.action!] : []))[0]!;
    tick();
    expect((await app.registry.act(ctx, saveFirst)).fallback).toBe('Saved to your library · 4 papers');
    expect(titles(await app.registry.act(ctx, next))).toEqual(before);
    // Asked again, the list as it is now: the saved paper is recommended from, no longer to.
    const again = await app.registry.run(ctx, 'library', {}, 'recommend');
    expect(again.blocks[1]).toMatchObject({ text: expect.stringMatching(/^Like the 4 papers/) });
  });

  it('says what to do when the buttons expired, and refuses buttons it never made', async () => {
    await save('U-OLD', await broad());
    const ctx = member('U-OLD');
    const first = await app.registry.run(ctx, 'library', {}, 'recommend');
    const next = first.buttons![0]![1]!.action!;
    const later = app.context('slack', { id: 'U-OLD', name: 'U-OLD' }, { channel: { id: 'C-LAB', name: 'lab', kind: 'channel' }, workspace: { id: 'T1' } });
    clock = new Date(clock.getTime() + 31 * 86_400_000);
    try {
      expect(await app.registry.act(later, next)).toMatchObject({ ephemeral: true, fallback: 'These recommendations have expired. Run /library recommend again to page through them.' });
    } finally {
      clock = new Date(clock.getTime() - 31 * 86_400_000);
    }
    // A search's state under a recommendations button, a page that is no number, no state at all.
    const search = await app.registry.run(ctx, 'paper', { query: 'tactile' });
    const searchState = /^paper:page:(\w+):/.exec(search.buttons![0]![1]!.action!)?.[1];
    for (const handle of [`library:recommend:${searchState}:1`, next.replace(/:\d+$/, ':x'), 'library:recommend', 'library:recommend::1']) {
      expect(await app.registry.act(ctx, handle), handle).toMatchObject({ ephemeral: true, fallback: 'That button is broken; run the search again.' });
    }
  });
});
