/**
 * `/library recommend` over a whole core opened on the recommendation fixture (a lab's papers,
 * a federated-learning keyword group): lists filled through the real reading-list store.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/commands/types.js';
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
    expect(reply.blocks[1]).toEqual({ kind: 'note', text: 'Like the 3 papers saved and shared · newest first' });
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
});
