/**
 * The ReadingListStore contract on SQLite and PostgreSQL: members' and channels' lists (Save
 * pressed twice, notes, pages newest first), who sees what (member, channel, team, platform),
 * channels' archives (one share per message, first and last sharer), archiving off and on,
 * forgetting a member or a whole workspace, a paper moving when two records merge, concurrent
 * presses on PostgreSQL, and hostile text kept as it was given.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { MAX_NOTE_LENGTH, type ListOwner, type Person, type ReadingListStore } from '../../src/store/readingLists.js';
import { skipping } from '../helpers/skip.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const at = (minute: number) => new Date(Date.UTC(2026, 3, 1, 10, minute));
const iso = (minute: number) => at(minute).toISOString();
const ada: Person = { id: 'U1', name: 'Ada' };
const bob: Person = { id: 'U2', name: 'Bob' };
const member = (id: string, team = 'T1', platform = 'slack'): ListOwner => ({ platform, team, kind: 'member', id });
const channel = (id: string, team = 'T1', platform = 'slack'): ListOwner => ({ platform, team, kind: 'channel', id });
const mine = member('U1');
const general = channel('C1');
const page = { offset: 0, limit: 50 };

describe.each(BACKENDS)('ReadingListStore on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  let lists: ReadingListStore;
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
    lists = a.readingLists;
  });
  afterEach(() => store.dispose());

  const share = (ch: string, paperId: string, by: Person, minute: number, message = `${ch}:${minute}`) =>
    lists.recordShare('slack', 'T1', ch, { paperId, by, at: at(minute), message });

  it('Save pressed twice takes the paper off again, and says how many papers the list holds', async () => {
    expect(await lists.toggle(mine, 'arxiv:1706.03762', ada, at(0))).toEqual({ saved: true, count: 1 });
    expect(await lists.toggle(mine, 'arxiv:1810.04805', ada, at(1))).toEqual({ saved: true, count: 2 });
    expect(await lists.has(mine, 'arxiv:1706.03762')).toBe(true);
    expect(await lists.toggle(mine, 'arxiv:1706.03762', ada, at(2))).toEqual({ saved: false, count: 1 });
    expect(await lists.has(mine, 'arxiv:1706.03762')).toBe(false);
    expect(await lists.paperIds(mine)).toEqual(['arxiv:1810.04805']);
    expect(await lists.remove(mine, 'arxiv:1810.04805')).toBe(true);
    expect(await lists.remove(mine, 'arxiv:1810.04805')).toBe(false);
    expect(await lists.list(mine, page)).toEqual({ entries: [], total: 0 });
  });

  it('adds with a note; adding again replaces the note and is not new; an empty note removes it', async () => {
    expect(await lists.add(general, 'arxiv:1', ada, at(0), 'read §3 first')).toEqual({ added: true, count: 1 });
    expect(await lists.add(general, 'arxiv:1', bob, at(5), 'the appendix is better')).toEqual({ added: false, count: 1 });
    const first = { paperId: 'arxiv:1', addedBy: ada, addedAt: iso(0) };
    expect((await lists.list(general, page)).entries).toEqual([{ ...first, note: 'the appendix is better', noteBy: bob }]);
    expect(await lists.add(general, 'arxiv:1', bob, at(6))).toEqual({ added: false, count: 1 });
    expect((await lists.entries(general, ['arxiv:1'])).get('arxiv:1')?.note).toBe('the appendix is better');
    expect(await lists.add(general, 'arxiv:2', bob, at(7))).toEqual({ added: true, count: 2 });
    await lists.add(general, 'arxiv:1', ada, at(8), '');
    expect((await lists.entries(general, ['arxiv:1'])).get('arxiv:1')).toEqual(first);
    // A toggle of a paper added with add takes it off like any other.
    expect(await lists.toggle(general, 'arxiv:2', ada, at(9))).toEqual({ saved: false, count: 1 });
  });

  it(`refuses a note longer than ${MAX_NOTE_LENGTH} characters, counting an emoji as one`, async () => {
    const longest = '👩‍🔬'.repeat(MAX_NOTE_LENGTH / 5) + 'x'.repeat(MAX_NOTE_LENGTH - (MAX_NOTE_LENGTH / 5) * 3);
    expect([...longest]).toHaveLength(MAX_NOTE_LENGTH);
    await lists.add(mine, 'arxiv:1', ada, at(0), longest);
    expect((await lists.entries(mine, ['arxiv:1'])).get('arxiv:1')?.note).toBe(longest);
    const refused = lists.add(mine, 'arxiv:2', ada, at(1), `${longest}!`);
    await expect(refused).rejects.toBeInstanceOf(UserError);
    await expect(refused).rejects.toThrow(`at most ${MAX_NOTE_LENGTH} characters long; this one has ${MAX_NOTE_LENGTH + 1}`);
    expect(await lists.paperIds(mine)).toEqual(['arxiv:1']);
  });

  it('lists pages newest first (ties by paper id) with the total; paperIds in the same order; entries() of some', async () => {
    for (const [minute, id] of [[3, 'arxiv:c'], [1, 'arxiv:a'], [5, 'arxiv:e'], [3, 'arxiv:b'], [4, 'arxiv:d']] as const) {
      await lists.toggle(mine, id, ada, at(minute));
    }
    const order = ['arxiv:e', 'arxiv:d', 'arxiv:b', 'arxiv:c', 'arxiv:a'];
    expect(await lists.paperIds(mine)).toEqual(order);
    const first = await lists.list(mine, { offset: 0, limit: 2 });
    expect(first).toEqual({ total: 5, entries: [{ paperId: 'arxiv:e', addedBy: ada, addedAt: iso(5) }, { paperId: 'arxiv:d', addedBy: ada, addedAt: iso(4) }] });
    expect((await lists.list(mine, { offset: 2, limit: 2 })).entries.map((e) => e.paperId)).toEqual(['arxiv:b', 'arxiv:c']);
    expect(await lists.list(mine, { offset: 10, limit: 2 })).toEqual({ entries: [], total: 5 });
    const some = await lists.entries(mine, ['arxiv:a', 'arxiv:zz', 'arxiv:d']);
    expect([...some.keys()].sort()).toEqual(['arxiv:a', 'arxiv:d']);
    expect(some.get('arxiv:a')).toEqual({ paperId: 'arxiv:a', addedBy: ada, addedAt: iso(1) });
    expect(await lists.entries(mine, [])).toEqual(new Map());
    await expect(lists.list(mine, { offset: -1, limit: 2 })).rejects.toThrow(RangeError);
  });

  it('keeps lists apart: another member, another team, another platform, and the channel named like the member', async () => {
    const owners = [mine, member('U2'), member('U1', 'T2'), member('U1', 'T1', 'discord'), channel('U1'), channel('C1')];
    for (const [n, owner] of owners.entries()) {
      for (let k = 0; k <= n; k++) await lists.toggle(owner, `arxiv:${n}.${k}`, ada, at(k));
    }
    for (const [n, owner] of owners.entries()) {
      const ids = await lists.paperIds(owner);
      expect(ids.sort(), JSON.stringify(owner)).toEqual(Array.from({ length: n + 1 }, (_, k) => `arxiv:${n}.${k}`));
      expect((await lists.list(owner, page)).total).toBe(n + 1);
      expect(await lists.has(owner, 'arxiv:0.0')).toBe(n === 0);
    }
    expect(await lists.remove(member('U2'), 'arxiv:0.0')).toBe(false);
    expect(await lists.entries(channel('U1'), ['arxiv:0.0', 'arxiv:4.0'])).toEqual(new Map([['arxiv:4.0', { paperId: 'arxiv:4.0', addedBy: ada, addedAt: iso(0) }]]));
    // Archives too: a channel's is its own.
    await lists.recordShare('slack', 'T1', 'C1', { paperId: 'arxiv:x', by: ada, at: at(0), message: 'm1' });
    for (const [platform, team, ch] of [['slack', 'T1', 'C2'], ['slack', 'T2', 'C1'], ['discord', 'T1', 'C1']] as const) {
      expect(await lists.archive(platform, team, ch, page)).toEqual({ entries: [], total: 0 });
      expect(await lists.archiveEntries(platform, team, ch, ['arxiv:x'])).toEqual(new Map());
    }
  });

  it('counts a message once however often it is seen, and each message once; first and last sharer', async () => {
    expect(await share('C1', 'arxiv:1', ada, 10, 'C1:1712.1')).toBe(true);
    expect(await share('C1', 'arxiv:1', ada, 10, 'C1:1712.1')).toBe(false);
    expect(await share('C1', 'arxiv:2', ada, 10, 'C1:1712.1')).toBe(true); // one message, two papers
    expect(await share('C1', 'arxiv:1', bob, 20, 'C1:1712.2')).toBe(true);
    // A share seen late (an event redelivered) that happened first becomes the first.
    expect(await share('C1', 'arxiv:2', bob, 5, 'C1:1712.0')).toBe(true);
    expect(await share('C1', 'arxiv:3', bob, 15)).toBe(true);
    const archive = await lists.archive('slack', 'T1', 'C1', page);
    expect(archive).toEqual({
      total: 3,
      entries: [
        { paperId: 'arxiv:1', firstSharedBy: ada, firstSharedAt: iso(10), lastSharedAt: iso(20), shares: 2 },
        { paperId: 'arxiv:3', firstSharedBy: bob, firstSharedAt: iso(15), lastSharedAt: iso(15), shares: 1 },
        { paperId: 'arxiv:2', firstSharedBy: bob, firstSharedAt: iso(5), lastSharedAt: iso(10), shares: 2 },
      ],
    });
    expect((await lists.archive('slack', 'T1', 'C1', { offset: 1, limit: 1 })).entries.map((e) => e.paperId)).toEqual(['arxiv:3']);
    const some = await lists.archiveEntries('slack', 'T1', 'C1', ['arxiv:2', 'arxiv:9']);
    expect([...some.values()]).toEqual([archive.entries[2]]);
  });

  it('archives unless a channel turns it off, and again once it is turned on', async () => {
    expect(await lists.archiveSetting('slack', 'T1', 'C1')).toEqual({ on: true });
    await lists.setArchiving('slack', 'T1', 'C1', false, ada, at(0));
    expect(await lists.archiveSetting('slack', 'T1', 'C1')).toEqual({ on: false, setBy: ada, setAt: iso(0) });
    expect((await lists.archiveSetting('slack', 'T1', 'C2')).on).toBe(true);
    expect((await lists.archiveSetting('slack', 'T2', 'C1')).on).toBe(true);
    expect(await share('C1', 'arxiv:1', ada, 1)).toBe(false);
    expect(await share('C2', 'arxiv:1', ada, 1)).toBe(true);
    expect((await lists.archive('slack', 'T1', 'C1', page)).total).toBe(0);
    await lists.setArchiving('slack', 'T1', 'C1', true, bob, at(2));
    expect(await lists.archiveSetting('slack', 'T1', 'C1')).toEqual({ on: true, setBy: bob, setAt: iso(2) });
    expect(await share('C1', 'arxiv:1', ada, 3)).toBe(true);
    expect((await lists.archive('slack', 'T1', 'C1', page)).total).toBe(1);
  });

  it('forgets a member: their list gone, their channel entries and shares kept by nobody, others untouched', async () => {
    await lists.add(mine, 'arxiv:1', ada, at(0), 'mine: private');
    await lists.toggle(mine, 'arxiv:2', ada, at(1));
    await lists.add(general, 'arxiv:1', ada, at(2), 'ada on her own entry');
    await lists.add(general, 'arxiv:2', bob, at(3), 'bob on his entry');
    await lists.add(general, 'arxiv:2', ada, at(4), 'ada on bob’s entry');
    await lists.add(general, 'arxiv:3', bob, at(5), 'bob’s note stays');
    await lists.add(general, 'arxiv:4', ada, at(6));
    await lists.toggle(member('U2'), 'arxiv:1', bob, at(7));
    await lists.toggle(member('U1', 'T2'), 'arxiv:1', { id: 'U1', name: 'A. L.' }, at(8));
    await share('C1', 'arxiv:1', ada, 9);
    await share('C1', 'arxiv:1', bob, 10);
    await share('C2', 'arxiv:5', bob, 11);
    await share('C2', 'arxiv:5', ada, 12);
    await lists.setArchiving('slack', 'T1', 'C3', false, ada, at(13));

    expect(await lists.forgetMember('slack', 'T1', 'U1')).toEqual({ saved: 2, channelEntries: 2, notes: 2, shares: 2 });
    expect(await lists.list(mine, page)).toEqual({ entries: [], total: 0 });
    expect((await lists.list(general, page)).entries).toEqual([
      { paperId: 'arxiv:4', addedAt: iso(6) },
      { paperId: 'arxiv:3', addedBy: bob, addedAt: iso(5), note: 'bob’s note stays', noteBy: bob },
      { paperId: 'arxiv:2', addedBy: bob, addedAt: iso(3) },
      { paperId: 'arxiv:1', addedAt: iso(2) },
    ]);
    expect((await lists.archive('slack', 'T1', 'C1', page)).entries).toEqual([{ paperId: 'arxiv:1', firstSharedAt: iso(9), lastSharedAt: iso(10), shares: 2 }]);
    expect((await lists.archive('slack', 'T1', 'C2', page)).entries).toEqual([
      { paperId: 'arxiv:5', firstSharedBy: bob, firstSharedAt: iso(11), lastSharedAt: iso(12), shares: 2 },
    ]);
    expect(await lists.archiveSetting('slack', 'T1', 'C3')).toEqual({ on: false, setAt: iso(13) });
    expect(await lists.paperIds(member('U2'))).toEqual(['arxiv:1']);
    expect(await lists.paperIds(member('U1', 'T2'))).toEqual(['arxiv:1']);
    // Nothing of U1 in T1 is left anywhere: not the id, not the name, not the private note.
    const rows = JSON.stringify(await a.readingListRows());
    expect(rows).not.toContain('Ada');
    expect(rows).not.toContain('ada on');
    expect(rows).not.toContain('mine: private');
    expect(rows.match(/"U1"/g)).toHaveLength(2); // T2's list of U1: its owner and who added the paper
    expect(await lists.forgetMember('slack', 'T1', 'U1')).toEqual({ saved: 0, channelEntries: 0, notes: 0, shares: 0 });
  });

  it('forgets a whole workspace, and only it', async () => {
    await lists.toggle(mine, 'arxiv:1', ada, at(0));
    await lists.add(general, 'arxiv:1', ada, at(1), 'note');
    await share('C1', 'arxiv:1', ada, 2);
    await share('C1', 'arxiv:1', bob, 3);
    await lists.setArchiving('slack', 'T1', 'C2', false, ada, at(4));
    await lists.toggle(member('U1', 'T2'), 'arxiv:1', ada, at(5));
    await lists.toggle(member('U1', 'T1', 'discord'), 'arxiv:1', ada, at(6));
    expect(await lists.forgetTeam('slack', 'T1')).toBe(4);
    const rows = await a.readingListRows();
    expect(Object.values(rows).flat()).toHaveLength(2);
    expect((await lists.archiveSetting('slack', 'T1', 'C2')).on).toBe(true);
    expect(await lists.paperIds(member('U1', 'T2'))).toEqual(['arxiv:1']);
    expect(await lists.paperIds(member('U1', 'T1', 'discord'))).toEqual(['arxiv:1']);
    expect(await lists.forgetTeam('slack', 'T1')).toBe(0);
  });

  it('moves a paper when two merge: one entry where both were, the older date, any note; shares added up', async () => {
    const [doi, arxiv] = ['doi:10.1/x', 'arxiv:2401.00001'];
    await lists.toggle(mine, doi, ada, at(1)); // older, no note
    await lists.add(mine, arxiv, ada, at(5), 'newer, with a note');
    await lists.toggle(mine, 'arxiv:other', ada, at(3));
    await lists.add(general, doi, bob, at(2), 'only the old id');
    await lists.add(channel('C2'), arxiv, bob, at(1), 'older keeps its note');
    await lists.add(channel('C2'), doi, ada, at(4), 'newer note dropped');
    await share('C1', doi, ada, 10, 'm1');
    await share('C1', arxiv, ada, 10, 'm1'); // one message linking both
    await share('C1', arxiv, bob, 8, 'm0');
    await share('C1', doi, bob, 12, 'm2');
    await share('C2', doi, bob, 7, 'm3');

    await lists.movePaper(doi, arxiv);
    expect((await lists.list(mine, page)).entries).toEqual([
      { paperId: 'arxiv:other', addedBy: ada, addedAt: iso(3) },
      { paperId: arxiv, addedBy: ada, addedAt: iso(1), note: 'newer, with a note', noteBy: ada },
    ]);
    expect((await lists.list(general, page)).entries).toEqual([{ paperId: arxiv, addedBy: bob, addedAt: iso(2), note: 'only the old id', noteBy: bob }]);
    expect((await lists.list(channel('C2'), page)).entries).toEqual([{ paperId: arxiv, addedBy: bob, addedAt: iso(1), note: 'older keeps its note', noteBy: bob }]);
    expect((await lists.archive('slack', 'T1', 'C1', page)).entries).toEqual([
      { paperId: arxiv, firstSharedBy: bob, firstSharedAt: iso(8), lastSharedAt: iso(12), shares: 3 },
    ]);
    expect((await lists.archive('slack', 'T1', 'C2', page)).entries).toEqual([{ paperId: arxiv, firstSharedBy: bob, firstSharedAt: iso(7), lastSharedAt: iso(7), shares: 1 }]);
    expect(JSON.stringify(await a.readingListRows())).not.toContain(doi);
    // A message seen again after the merge, under the old id's new name, is still one share.
    expect(await share('C1', arxiv, ada, 10, 'm1')).toBe(false);
    await lists.movePaper(arxiv, arxiv);
    await lists.movePaper('doi:10.1/none', arxiv);
    expect(await lists.paperIds(mine)).toEqual(['arxiv:other', arxiv]);
  });

  it('keeps hostile text in notes, names and ids as it was given (NUL and lone surrogates aside)', async () => {
    const texts = [
      "'); DROP TABLE reading_list_entries; --",
      '<@U999> @everyone <!channel> @here <#C1|general>',
      '*bold* _it_ ~strike~ `code` ```block``` > quote [link](https://example.com) <https://evil.example|click>',
      '%_\\ $1 ? :name @name',
      'line one\nline two\r\n\ttabbed',
      '\u202Eevil\u202C \u200B\u200D 👩‍👩‍👧 e\u0301 vs \u00e9 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 中文笔记',
      '["json", {"x": 1}] \\u0000',
    ];
    const owner = member(`"quoted" ${texts[0]}`, '["team"]');
    for (const [n, text] of texts.entries()) await lists.add(owner, `arxiv:${n} ${text}`, { id: `U ${text}`, name: text }, at(n), text);
    const entries = await lists.entries(owner, texts.map((text, n) => `arxiv:${n} ${text}`));
    expect(entries.size).toBe(texts.length);
    for (const [n, text] of texts.entries()) {
      expect(entries.get(`arxiv:${n} ${text}`)).toEqual({ paperId: `arxiv:${n} ${text}`, addedBy: { id: `U ${text}`, name: text }, addedAt: iso(n), note: text, noteBy: { id: `U ${text}`, name: text } });
    }
    await lists.recordShare('slack', '["team"]', texts[1]!, { paperId: texts[2]!, by: { id: texts[3]!, name: texts[5]! }, at: at(1), message: texts[4]! });
    expect((await lists.archive('slack', '["team"]', texts[1]!, page)).entries[0]?.firstSharedBy).toEqual({ id: texts[3], name: texts[5] });
    // What no store can hold is the same in both: NUL dropped, a lone surrogate U+FFFD.
    await lists.add(mine, 'arxiv:1', { id: 'U1', name: 'A\u0000da\uD800' }, at(0), 'n\u0000o\uDC00te');
    expect((await lists.entries(mine, ['arxiv:1'])).get('arxiv:1')).toMatchObject({ addedBy: { id: 'U1', name: 'Ada\uFFFD' }, note: 'no\uFFFDte' });
  });

  it.skipIf(skipping(`On ${backend.name}, Saves pressed at once on two instances in one process`, backend.noConcurrentInstances))('ends where presses in a row would when instances press Save at once', async () => {
    const b = await store.instance();
    const presses = await Promise.all(Array.from({ length: 9 }, (_, n) => (n % 2 ? a : b).readingLists.toggle(mine, 'arxiv:1', ada, at(n))));
    expect(presses.filter((p) => p.saved)).toHaveLength(5);
    expect(presses.map((p) => p.count).sort()).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1]);
    expect(await lists.has(mine, 'arxiv:1')).toBe(true);
    const saves = await Promise.all(Array.from({ length: 12 }, (_, n) => (n % 2 ? a : b).readingLists.toggle(mine, `arxiv:p${n}`, ada, at(n))));
    expect(saves.map((p) => p.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, n) => n + 2));
    const adds = await Promise.all([a, b, a, b].map((i, n) => i.readingLists.add(general, 'arxiv:1', ada, at(n), `note ${n}`)));
    expect(adds.filter((r) => r.added)).toHaveLength(1);
    const shares = await Promise.all([a, b, a, b].map((i) => i.readingLists.recordShare('slack', 'T1', 'C1', { paperId: 'arxiv:1', by: ada, at: at(0), message: 'm' })));
    expect(shares.filter(Boolean)).toHaveLength(1);
    await Promise.all([a, b, a, b].map((i, n) => i.readingLists.recordShare('slack', 'T1', 'C1', { paperId: 'arxiv:1', by: bob, at: at(n + 1), message: `m${n}` })));
    expect((await lists.archive('slack', 'T1', 'C1', page)).entries[0]).toEqual({ paperId: 'arxiv:1', firstSharedBy: ada, firstSharedAt: iso(0), lastSharedAt: iso(4), shares: 5 });
  });

  it('rejects, rather than answering, when the store is closed', async () => {
    await a.close();
    await expect(lists.toggle(mine, 'arxiv:1', ada, at(0))).rejects.toThrow();
    await expect(lists.list(mine, page)).rejects.toThrow();
  });
});
