import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordShares } from '../../src/commands/archive.js';
import type { CommandContext } from '../../src/commands/types.js';
import type { Button, Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
let clock = new Date('2026-12-01T09:00:00Z');
beforeAll(async () => {
  app = await createTestApp({ now: () => clock });
});
afterAll(() => app.dispose());

const tick = () => (clock = new Date(clock.getTime() + 60_000));
const ana = (extra: Partial<CommandContext> = {}) =>
  app.context('slack', { id: 'U-ANA', name: 'Ana' }, { channel: { id: 'C-LAB', name: 'lab', kind: 'channel' }, workspace: { id: 'T1' }, member: { isAdmin: false }, ...extra });
const ben = (extra: Partial<CommandContext> = {}) =>
  app.context('slack', { id: 'U-BEN', name: 'Ben' }, { channel: { id: 'C-LAB', name: 'lab', kind: 'channel' }, workspace: { id: 'T1' }, member: { isAdmin: false }, ...extra });

/** The Save button of the card at `position` (from 1) of a reply. */
function saveOf(reply: Reply, position: number): Button {
  const cards = reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper] : []));
  const card = cards.find((c) => c.position === position);
  const save = card?.actions?.find((a) => a.id === 'save');
  if (!save?.action) throw new Error(`no Save on card ${position}: ${JSON.stringify(cards.map((c) => c.position))}`);
  return save;
}

const titles = (reply: Reply) => reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper.title] : []));

describe('/library', () => {
  it('saves a result card with its Save button, lists it in /library mine, and removes it on a second press', async () => {
    const results = await app.registry.run(ana(), 'paper', { query: 'attention is all you need' });
    const save = saveOf(results, 1);
    expect(save.label).toBe('Save');
    tick();
    const saved = await app.registry.act(ana(), save.action!);
    expect(saved).toMatchObject({ ephemeral: true, fallback: 'Saved to your library · 1 paper' });
    const mine = await app.registry.run(ana(), 'library', {}, 'mine');
    expect(mine.ephemeral).toBe(true);
    expect(titles(mine)).toEqual(['Attention Is All You Need']);
    const card = mine.blocks.find((b) => b.kind === 'paper');
    expect(card?.kind === 'paper' && card.paper.provenance).toMatch(/^Saved Tuesday, 1 December 2026$/);
    const again = await app.registry.act(ana(), save.action!);
    expect(again.fallback).toBe('Removed from your library · 0 papers');
    expect((await app.registry.run(ana(), 'library', {}, 'mine')).fallback).toMatch(/^Your library is empty: press Save/);
  });

  it('keeps members apart: Ben never sees what Ana saved, nor does Ana in another workspace', async () => {
    const results = await app.registry.run(ana(), 'paper', { query: 'denoising diffusion probabilistic models' });
    await app.registry.act(ana(), saveOf(results, 1).action!);
    expect(titles(await app.registry.run(ana(), 'library', {}, 'mine'))).toEqual(['Denoising Diffusion Probabilistic Models']);
    expect((await app.registry.run(ben(), 'library', {}, 'mine')).fallback).toMatch(/^Your library is empty/);
    expect((await app.registry.run(ana({ workspace: { id: 'T2' } }), 'library', {}, 'mine')).fallback).toMatch(/^Your library is empty/);
    expect((await app.registry.run(app.context('discord', { id: 'U-ANA' }, { workspace: { id: 'T1' } }), 'library', {}, 'mine')).fallback).toMatch(/^Your library is empty/);
  });

  it('searches within a list and pages it newest first', async () => {
    for (const query of ['generative adversarial nets', 'segment anything', 'mask r-cnn', 'adam stochastic optimization', 'graph attention networks', 'proximal policy optimization']) {
      tick();
      await app.registry.act(ben(), saveOf(await app.registry.run(ben(), 'paper', { query }), 1).action!);
    }
    const first = await app.registry.run(ben(), 'library', {}, 'mine');
    expect(titles(first)).toEqual(['Proximal Policy Optimization Algorithms', 'Graph Attention Networks', 'Adam: A Method for Stochastic Optimization', 'Mask R-CNN', 'Segment Anything']);
    expect(first.blocks[1]).toEqual({ kind: 'note', text: '6 papers · page 1 of 2' });
    const next = first.buttons?.[0]?.find((b) => b.id === 'next');
    const second = await app.registry.act(ben(), next!.action!);
    expect(titles(second)).toEqual(['Generative Adversarial Nets']);
    const found = await app.registry.runText(ben(), 'library', 'mine optimization');
    expect(titles(found).sort()).toEqual(['Adam: A Method for Stochastic Optimization', 'Proximal Policy Optimization Algorithms']);
    expect(found.blocks[1]).toEqual({ kind: 'note', text: '2 of 6 papers match “optimization” · page 1 of 1' });
    const none = await app.registry.runText(ben(), 'library', 'mine transformers');
    expect(none.fallback).toBe('None of the 6 papers in your library match “transformers”.');
  });

  it('adds to the channel list with a note, shows who added it, and lets only them or a manager remove it', async () => {
    tick();
    const added = await app.registry.runText(ana(), 'library', 'add paper:https://arxiv.org/abs/1810.04805 note:"read §3 first <@U123> <!channel>\nplease"');
    expect(added.fallback).toBe('Added “BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding” to this channel\'s reading list · 1 paper');
    const list = await app.registry.run(ben(), 'library', {}, 'channel');
    const card = list.blocks.find((b) => b.kind === 'paper');
    expect(card?.kind === 'paper' && card.paper.provenance).toBe(
      'Added by Ana, Tuesday, 1 December 2026 · “read §3 first <@U123> <!channel> please” · Shared by Ana, Tuesday, 1 December 2026',
    );
    const refused = await app.registry.runText(ben(), 'library', 'remove paper:1810.04805 scope:channel');
    expect(refused).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/^Ana added this paper to the channel's list: only they/) });
    const removed = await app.registry.runText(ben({ member: { isAdmin: true } }), 'library', 'remove paper:1810.04805 scope:channel');
    expect(removed.fallback).toBe('Removed “BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding” from this channel\'s reading list.');
  });

  it('records paper links shared in a channel, once a message, until the channel turns its archive off', async () => {
    const links = ['https://arxiv.org/abs/1409.0473v7', 'https://example.org/not-a-paper', 'https://openreview.net/forum?id=Sy8gdB9xx'];
    expect(await recordShares(ben(), links, 'C-LAB:1.1')).toBe(2);
    expect(await recordShares(ben(), links, 'C-LAB:1.1')).toBe(0);
    tick();
    expect(await recordShares(ana(), [links[0]!], 'C-LAB:1.2')).toBe(1);
    const list = await app.registry.run(ana(), 'library', {}, 'channel');
    const provenance = list.blocks.flatMap((b) => (b.kind === 'paper' ? [`${b.paper.title} | ${b.paper.provenance}`] : []));
    expect(provenance).toContain('Neural Machine Translation by Jointly Learning to Align and Translate | Shared by Ben, Tuesday, 1 December 2026 · shared 2 times');
    expect(await recordShares(ben({ channel: { id: 'D1', kind: 'dm' } }), links, 'D1:1')).toBe(0);
    await app.registry.runText(ana({ member: { isAdmin: true } }), 'library', 'archive off');
    expect(await recordShares(ben(), links, 'C-LAB:1.3')).toBe(0);
    await app.registry.runText(ana(), 'library', 'archive on');
    expect(await recordShares(ben(), links, 'C-LAB:1.4')).toBe(2);
  });

  it('lets only those who manage a channel turn its archive off, as for digests', async () => {
    const where = { channel: { id: 'C-ARCH', name: 'arch', kind: 'channel' as const } };
    const said = async (ctx: CommandContext, state: string) => (await app.registry.runText(ctx, 'library', `archive ${state}`)).fallback;
    const onSlack = (id: string, name: string, isAdmin = false) => app.context('slack', { id, name }, { ...where, workspace: { id: 'T1' }, member: { isAdmin } });
    const onDiscord = (id: string, canManageChannel: boolean) => app.context('discord', { id }, { ...where, workspace: { id: 'G1' }, member: { canManageChannel } });

    // Slack, on from the start: turned on by nobody, so admins alone may turn it off.
    expect(await said(onSlack('U-ANA', 'Ana'), 'off')).toBe("Only workspace admins can turn this channel's archive off. Ask one of them to run /library archive off.");
    // "On" while on changes nothing, so it makes nobody the one who turned it on.
    expect(await said(onSlack('U-ANA', 'Ana'), 'on')).toMatch(/^This channel's archive is on already/);
    expect(await said(onSlack('U-ANA', 'Ana'), 'off')).toMatch(/^Only workspace admins can/);
    expect(await said(onSlack('U-ADM', 'Admin', true), 'off')).toMatch(/^Paper links shared in this channel are no longer recorded/);
    // Anyone may turn it on; then they, or an admin, may turn it off, and no other member.
    expect(await said(onSlack('U-CAL', 'Cal'), 'on')).toMatch(/^Paper links shared in this channel are recorded/);
    expect(await said(onSlack('U-ANA', 'Ana'), 'off')).toBe("Only workspace admins and Cal, who turned this channel's archive on, can turn it off. Ask one of them to run /library archive off.");
    expect(await said(onSlack('U-CAL', 'Cal'), 'off')).toMatch(/^Paper links shared in this channel are no longer recorded/);
    // Once Cal is forgotten, nobody turned it on: admins alone again.
    expect(await said(onSlack('U-CAL', 'Cal'), 'on')).toMatch(/^Paper links shared in this channel are recorded/);
    await app.registry.act(onSlack('U-CAL', 'Cal'), 'library:forget');
    expect(await said(onSlack('U-CAL', 'Cal'), 'off')).toMatch(/^Only workspace admins can turn/);

    // Discord: Manage Channels, either way; the answer says what to do, in the member's language too.
    expect(await said(onDiscord('1', false), 'off')).toBe('Only members who can manage this channel (the Manage Channels permission) can turn its archive off. Ask one of them to run /library archive off.');
    expect(await said(onDiscord('1', true), 'off')).toMatch(/^Paper links shared in this channel are no longer recorded/);
    expect(await said(onDiscord('2', false), 'on')).toBe('Only members who can manage this channel (the Manage Channels permission) can turn its archive on. Ask one of them to run /library archive on.');
    const zh = app.context('discord', { id: '2' }, { ...where, workspace: { id: 'G1' }, member: { canManageChannel: false }, locale: 'zh-CN' });
    expect(await said(zh, 'on')).toBe('只有能管理本频道的成员（拥有“管理频道”权限）才能开启或关闭频道归档。请让他们运行 /library archive on。');
  });

  it('exports a list as BibTeX that a real parser reads, as a file', async () => {
    const reply = await app.registry.runText(ben(), 'library', 'export format:bibtex');
    expect(reply.fallback).toBe('6 papers as BibTeX');
    expect(reply.file).toMatchObject({ name: 'paperscout-library.bib', mediaType: 'application/x-bibtex' });
    const parsed = parseBibtex(reply.file!.content);
    expect(parsed.entries).toHaveLength(6);
    const ris = await app.registry.runText(ben(), 'library', 'export format:ris');
    expect(ris.file?.content.match(/^TY {2}- /gm)).toHaveLength(6);
    const bad = await app.registry.runText(ben(), 'library', 'export format:endnote');
    expect(bad).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/bibtex, ris or csljson/) });
  });

  it('explains a paper it cannot find and where a channel list cannot be', async () => {
    const unknown = await app.registry.runText(ana(), 'library', 'add paper:not a paper at all');
    expect(unknown).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/is not a paper id or link.*\/paper/) });
    const missing = await app.registry.runText(ana(), 'library', 'add paper:2401.99999');
    expect(missing.fallback).toMatch(/The library has no paper at “2401.99999”. Find it with \/paper/);
    const dm = await app.registry.run(ana({ channel: { id: 'D1', kind: 'dm' } }), 'library', {}, 'channel');
    expect(dm.fallback).toMatch(/^A channel's reading list lives in a channel/);
  });

  it('forgets a member after a confirmation: their list, 👍/👎 and follows go, their channel entries stay as "someone"', async () => {
    tick();
    await app.registry.runText(ben(), 'library', 'add paper:1406.2661 note:"classic"');
    const benHere = { platform: 'slack', team: 'T1', user: 'U-BEN' };
    const others = [{ ...benHere, user: 'U-ANA' }, { ...benHere, team: 'T2' }];
    for (const who of [benHere, ...others]) {
      await app.stores.ratings.rate(who, 'arxiv:1406.2661', 1, clock);
      await app.stores.ratings.rate(who, 'arxiv:1706.03762', -1, clock);
      await app.stores.ratings.follow(who, 'Ian Goodfellow', clock);
    }
    const ask = await app.registry.run(ben(), 'library', {}, 'forget');
    expect(ask.ephemeral).toBe(true);
    expect(ask.fallback).toMatch(/^This deletes your saved papers, your notes, your 👍 and 👎 and the authors you follow in this server or workspace/);
    const confirm = ask.buttons?.[0]?.[0];
    expect(confirm).toMatchObject({ label: 'Delete my data', style: 'danger' });
    const done = await app.registry.act(ben(), confirm!.action!);
    expect(done.fallback).toBe(
      'Done: 6 saved papers, 1 note, 2 ratings and 1 followed author deleted; 1 paper on channel lists and 5 shared links now show “someone”.',
    );
    expect(await app.stores.ratings.ratings(benHere)).toEqual([]);
    expect(await app.stores.ratings.follows(benHere)).toEqual([]);
    for (const who of others) {
      expect(await app.stores.ratings.counts(who)).toEqual({ up: 1, down: 1 });
      expect(await app.stores.ratings.follows(who)).toHaveLength(1);
    }
    expect((await app.registry.run(ben(), 'library', {}, 'mine')).fallback).toMatch(/^Your library is empty/);
    const list = await app.registry.run(ana(), 'library', {}, 'channel');
    const gan = list.blocks.find((b) => b.kind === 'paper' && b.paper.title === 'Generative Adversarial Nets');
    expect(gan?.kind === 'paper' && gan.paper.provenance).toMatch(/^Added by someone, /);
    expect(gan?.kind === 'paper' && gan.paper.provenance).not.toMatch(/classic/);
  });

  it('answers in Chinese for a Chinese-speaking member', async () => {
    const results = await app.registry.run(ana({ locale: 'zh-CN' }), 'paper', { query: 'segment anything' });
    const save = saveOf(results, 1);
    expect(save.label).toBe('收藏');
    expect((await app.registry.act(ana({ locale: 'zh-CN' }), save.action!)).fallback).toMatch(/^已收藏 · 你的收藏共 \d+ 篇论文$/);
  });
});
