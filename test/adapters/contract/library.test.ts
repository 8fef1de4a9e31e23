/**
 * Reading lists through each platform's real SDK path, on each store: Save on a result card puts
 * the paper in the presser's library (privately), /library mine shows it, Save again takes it
 * off; another member never sees it; an opened paper's "Save to #channel" and a paper link
 * posted in the channel show in /library channel with who added or shared them, until the
 * channel turns its archive off (which only those who manage the channel may do); notes cannot ping; exports arrive as files (a member's in their
 * DMs on Slack, never in the channel) that the real parsers read; /library recommend pages with
 * Prev/Next that a later instance answers; a Save pressed on a second instance sharing the store
 * is seen by the first; /library forget, after its button, leaves
 * nothing of the member in the store.
 */
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_LABEL } from '../../../adapters/slack/render.js';
import { openApp, type App } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import type { ListOwner } from '../../../src/store/readingLists.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { silentLog } from '../../helpers/corpus.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../../helpers/postgres.js';
import { seedLibrary } from '../helpers/instances.js';
import type { Driver, Session } from './driver.js';
import { DRIVERS } from './drivers.js';

const STORES = [
  { store: 'sqlite', skip: false },
  { store: 'postgres', skip: postgresMissing !== undefined },
] as const;

/** The fixture workspace's id on each platform (the Discord fixtures' server, Slack's T0LAB). */
const TEAM = { discord: '1190000000000000100', slack: 'T0LAB' } as const;

describe.each(DRIVERS.flatMap((driver) => STORES.map((s) => ({ ...s, driver, name: `${driver.name} on ${s.store}` }))))('$name', ({ driver, store, skip }) => {
  let app: TestApp;
  let session: Session;
  let database: string | undefined;
  beforeAll(async () => {
    if (skip) return;
    if (store === 'postgres') {
      database = await createTestDatabase();
      await seedLibrary(database);
    }
    app = await createTestApp({ ...(database && { empty: true, env: { DATABASE_URL: database } }) });
    session = await driver.start(app, { archive: true });
  });
  afterAll(async () => {
    await session?.stop();
    await app?.dispose();
    if (database) await dropTestDatabase(database);
  });
  afterEach(() => {
    if (!skip) session.expectWellBehaved();
  });

  /** A member's own list in the fixture's server or workspace, read from the store. */
  const mine = (who: Driver['name'], user: string): ListOwner => ({ platform: who, team: TEAM[who], kind: 'member', id: user });

  it.skipIf(skip)('saves from a result card, privately; /library mine shows it; Save again takes it off; another member never sees it', async () => {
    const results = await session.command('/paper attention transformer', { member: 1 });
    const first = results.sections[0]!.title!;
    const saved = await session.pressOnCard(results, 1, 'Save', { member: 1 });
    expect(saved.private).toBe(true);
    expect(saved.said).toBe('Saved to your library · 1 paper');

    const list = await session.command('/library mine', { member: 1 });
    expect(list.private).toBe(true);
    expect(list.heading).toBe('Your library');
    expect(list.sections.map((s) => s.title)).toEqual([first]);
    expect(list.shown).toMatch(/Saved /);

    const other = await session.command('/library mine', { member: 2 });
    expect(other.said).toBe('Your library is empty: press Save on any paper (/paper finds one) and it is kept here.');

    const again = await session.pressOnCard(list, 1, 'Save', { member: 1 });
    expect(again.said).toBe('Removed from your library · 0 papers');
    expect((await session.command('/library mine', { member: 1 })).said).toMatch(/^Your library is empty/);
  });

  it.skipIf(skip)('keeps a channel list: Save to #channel on an opened paper, /library add with a note that cannot ping, links members post', async () => {
    const place = driver.places.channel(3);
    const results = await session.command('/paper attention transformer', { place, member: 3 });
    const opened = await session.choose(results, 0, { place, member: 3 });
    const toChannel = opened.buttons.find((b) => b.label.startsWith('Save to '));
    expect(toChannel?.label).toMatch(/^Save to (#\S+|this channel)$/);
    const added = await session.press(opened, toChannel!.label, { place, member: 3 });
    expect(added.private).toBe(true);
    expect(added.said).toMatch(/^Added “.+” to this channel's reading list · 1 paper$/);

    const hostile = '<@&1190000000000000900> <!channel> @everyone read §3';
    const noted = await session.command(`/library add paper:https://arxiv.org/abs/1810.04805 note:${hostile}`, { place, member: 4 });
    expect(noted.said).toMatch(/^Added “BERT.*” to this channel's reading list · 2 papers$/);

    await session.post(place, 'worth a read: https://arxiv.org/abs/2006.11239 (and https://example.org/not-a-paper)', { member: 5 });

    const list = await session.command('/library channel', { place, member: 6 });
    // The channel may see it: Discord answers in the channel; Slack answers every command
    // privately first, with its Share button.
    if (driver.name === 'slack') expect(list.buttons.map((b) => b.label)).toContain(SHARE_LABEL);
    else expect(list.private).toBe(false);
    const titles = list.sections.map((s) => s.title ?? '').join('\n');
    expect(titles).toContain('Denoising Diffusion Probabilistic Models');
    expect(titles).toContain('BERT');
    expect(list.shown).toMatch(/Shared by [^,\n]+5, /);
    expect(list.shown).toMatch(/Added by [^,\n]+3, /);
    expect(list.shown).toContain(driver.literal('<!channel>'));

    // Turning the archive off is for those who manage the channel, as changing its digests is
    // (Discord: Manage Channels; Slack: workspace admins, or whoever turned it on: nobody here).
    const refused = await session.command('/library archive off', { place, member: 6 });
    expect(refused.private).toBe(true);
    expect(refused.said).toBe(
      driver.name === 'discord'
        ? 'Only members who can manage this channel (the Manage Channels permission) can turn its archive off. Ask one of them to run /library archive off.'
        : "Only workspace admins can turn this channel's archive off. Ask one of them to run /library archive off.",
    );
    expect((await session.command('/library archive off', { place, member: 6, manager: true })).said).toMatch(/^Paper links shared in this channel are no longer recorded/);
    expect((await session.command('/library archive off', { place, member: 6 })).said).toMatch(/^This channel's archive is off already/);
    // Off: a link posted now is not recorded.
    await session.post(place, 'also https://arxiv.org/abs/1512.03385', { member: 5 });
    const after = await session.command('/library channel', { place, member: 6 });
    expect(after.subtitle).toMatch(/^3 papers/);
    expect(after.shown).not.toContain('Deep Residual Learning');

    // On again: on Discord for those who manage the channel only; on Slack for anyone, and then
    // whoever turned it on may turn it off again, as admins may, but no other member.
    const on = await session.command('/library archive on', { place, member: 5 });
    if (driver.name === 'discord') {
      expect(on.said).toBe('Only members who can manage this channel (the Manage Channels permission) can turn its archive on. Ask one of them to run /library archive on.');
      expect((await session.command('/library archive on', { place, member: 5, manager: true })).said).toMatch(/^Paper links shared in this channel are recorded/);
    } else {
      expect(on.said).toMatch(/^Paper links shared in this channel are recorded/);
      expect((await session.command('/library archive on', { place, member: 6 })).said).toMatch(/^This channel's archive is on already/);
      expect((await session.command('/library archive off', { place, member: 6 })).said).toBe(
        "Only workspace admins and Member 5, who turned this channel's archive on, can turn it off. Ask one of them to run /library archive off.",
      );
      expect((await session.command('/library archive off', { place, member: 5 })).said).toMatch(/^Paper links shared in this channel are no longer recorded/);
    }
  });

  it.skipIf(skip)('exports a member’s library as a file only they get, and the channel’s list into the channel, as BibTeX the parser reads', async () => {
    const place = driver.places.channel(4);
    const results = await session.command('/paper attention transformer', { place, member: 7 });
    await session.pressOnCard(results, 1, 'Save', { place, member: 7 });
    const before = session.files().length;
    const exported = await session.command('/library export format:bibtex', { place, member: 7 });
    expect(exported.private).toBe(true);
    expect(exported.shown).toContain('1 paper as BibTeX');
    const [file] = session.files().slice(before);
    expect(file?.name).toBe('paperscout-library.bib');
    // Slack: in the member's DMs with the bot; Discord: attached to the answer only they see.
    if (driver.name === 'slack') expect(file?.channel).toMatch(/^D/);
    const parsed = parseBibtex(file!.content);
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries).toHaveLength(1);

    // The channel's export holds what /library channel shows: its list and its archive.
    await session.command('/library add paper:https://arxiv.org/abs/1706.03762', { place, member: 7 });
    await session.post(place, 'https://arxiv.org/abs/2006.11239', { member: 10 });
    await session.command('/library export format:ris scope:channel', { place, member: 7 });
    const channelFile = session.files().at(-1)!;
    expect(channelFile.name).toBe('paperscout-channel.ris');
    expect(channelFile.channel).toBe(place.channel);
    expect(channelFile.content.match(/^TI {2}- .*$/gm)).toEqual(['TI  - Denoising Diffusion Probabilistic Models', 'TI  - Attention Is All You Need']);
  });

  it.skipIf(skip)('forgets a member after the confirmation button, leaving nothing of them in the store', async () => {
    const place = driver.places.channel(5);
    const results = await session.command('/paper attention transformer', { place, member: 8 });
    await session.pressOnCard(results, 1, 'Save', { place, member: 8 });
    // Added through the bot: on the channel's list, with a note, and in its archive as shared by them.
    await session.command('/library add paper:https://arxiv.org/abs/1810.04805 note:mine', { place, member: 8 });
    await session.post(place, 'https://arxiv.org/abs/2006.11239', { member: 8 });
    const user = await memberId(app, driver.name, place.channel);
    // Their 👍/👎 and follows (no button gives them yet: written as the store keeps them).
    const signals = { platform: driver.name, team: TEAM[driver.name], user };
    await app.stores.ratings.rate(signals, 'arxiv:1810.04805', 1, new Date());
    await app.stores.ratings.rate(signals, 'arxiv:2006.11239', -1, new Date());
    await app.stores.ratings.follow(signals, 'Jonathan Ho', new Date());

    const ask = await session.command('/library forget', { place, member: 8 });
    expect(ask.private).toBe(true);
    expect(await app.stores.readingLists.paperIds(mine(driver.name, user))).toHaveLength(1); // nothing gone before the button
    expect(await app.stores.ratings.counts(signals)).toEqual({ up: 1, down: 1 });
    const done = await session.press(ask, 'Delete my data', { place, member: 8 });
    expect(done.said).toBe('Done: 1 saved paper, 1 note, 2 ratings and 1 followed author deleted; 1 paper on channel lists and 2 shared links now show “someone”.');

    expect(await app.stores.readingLists.paperIds(mine(driver.name, user))).toEqual([]);
    expect(await app.stores.ratings.ratings(signals)).toEqual([]);
    expect(await app.stores.ratings.follows(signals)).toEqual([]);
    const channel: ListOwner = { platform: driver.name, team: TEAM[driver.name], kind: 'channel', id: place.channel };
    const entries = await app.stores.readingLists.list(channel, { offset: 0, limit: 10 });
    const archive = await app.stores.readingLists.archive(driver.name, TEAM[driver.name], place.channel, { offset: 0, limit: 10 });
    const kept = JSON.stringify([entries, archive]).toLowerCase();
    expect(kept).not.toContain(user.toLowerCase());
    expect(kept).not.toMatch(/member ?8/);
    const list = await session.command('/library channel', { place });
    expect(list.shown).toContain('Added by someone');
    expect(list.shown).toContain('Shared by someone');
  });

  it.skipIf(skip)('pages /library recommend five at a time, and its Prev/Next work on an instance started after it (a restart)', async () => {
    const results = await session.command('/paper learning', { member: 11 });
    for (const position of [1, 2, 3]) expect((await session.pressOnCard(results, position, 'Save', { member: 11 })).said).toMatch(/^Saved to your library/);
    const first = await session.command('/library recommend', { member: 11 });
    expect(first.private).toBe(true);
    expect(first.heading).toBe('Papers like your library');
    const pages = Number(/^Like the 3 papers saved and shared · the most alike first, each page newest first · page 1 of (\d+)$/.exec(first.subtitle ?? '')?.[1]);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(first.sections.map((s) => s.title?.replace(/^(\d+)\. .*$/s, '$1'))).toEqual(['1', '2', '3', '4', '5']);
    const labels = first.buttons.map((b) => `${b.label}${b.disabled ? ' (disabled)' : ''}`);
    expect(labels.filter((l) => /Prev|Next/.test(l))).toEqual(driver.showsDisabledButtons ? ['◀ Prev (disabled)', 'Next ▶'] : ['Next ▶']);

    const second = await openApp(loadConfig({ LOOKUP_UPSTREAM: 'off', DATA_DIR: app.dataDir, ...(database && { DATABASE_URL: database }) }), silentLog);
    const other = await driver.start(second);
    try {
      const next = await other.press(first, 'Next ▶', { member: 11 });
      expect(next.private).toBe(true);
      expect(next.subtitle).toMatch(new RegExp(`page 2 of ${pages}$`));
      expect(next.sections[0]?.title).toMatch(/^6\. /);
      const back = await other.press(next, '◀ Prev', { member: 11 });
      expect(back.sections.map((s) => s.title)).toEqual(first.sections.map((s) => s.title));
    } finally {
      await other.stop();
      await second.close();
    }
  });

  it.skipIf(skip)('answers a Save pressed on a second instance that shares the store, and the first one sees it', async () => {
    const second = await openApp(loadConfig({ LOOKUP_UPSTREAM: 'off', DATA_DIR: app.dataDir, ...(database && { DATABASE_URL: database }) }), silentLog);
    const other = await driver.start(second);
    try {
      const results = await session.command('/paper diffusion probabilistic', { member: 9 });
      const pressed = await other.pressOnCard(results, 1, 'Save', { member: 9 });
      expect(pressed.said).toBe('Saved to your library · 1 paper');
      const list = await session.command('/library mine', { member: 9 });
      expect(list.sections.map((s) => s.title)).toEqual([results.sections[0]!.title]);
    } finally {
      await other.stop();
      await second.close();
    }
  });
});

/** The platform id of the member who last added to `channel`'s list (the test's member). */
async function memberId(app: App, platform: string, channel: string): Promise<string> {
  const list = await app.stores.readingLists.list({ platform, team: TEAM[platform as Driver['name']], kind: 'channel', id: channel }, { offset: 0, limit: 1 });
  return list.entries[0]!.addedBy!.id;
}
