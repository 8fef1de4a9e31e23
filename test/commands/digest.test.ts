import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whyNoDigestsHere } from '../../src/commands/digest.js';
import { libraryQuery } from '../../src/digest/source.js';
import type { CommandContext } from '../../src/commands/types.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ now: () => new Date('2026-11-29T10:00:00Z') });
});
afterAll(() => app.dispose());

const discord = (extra: Partial<CommandContext> = {}) =>
  app.context('discord', { id: 'u-discord' }, { channel: { id: 'chan-1' }, workspace: { id: 'g1' }, member: { canManageChannel: true }, ...extra });
const slack = (user = 'U1', extra: Partial<CommandContext> = {}) =>
  app.context('slack', { id: user, timezone: 'America/Chicago' }, { channel: { id: 'C9' }, workspace: { id: 'T1' }, member: { isAdmin: false }, ...extra });

describe('/digest', () => {
  it('subscribes a channel with defaults and tells when the next digest comes', async () => {
    const reply = await app.registry.run(discord(), 'digest', { topic: 'llm' }, 'subscribe');
    expect(reply.ephemeral).toBeUndefined();
    expect(reply.fallback).toMatch(/^Subscribed: Deep Learning · Large Language Models, every day at 09:00 UTC, up to 5 papers\. Next: Monday, 30 November 2026, 09:00\.$/);
    const [sub] = await app.digests.forChannel('discord', 'chan-1');
    expect(sub).toMatchObject({ query: 'topic:"deep-learning/large-language-models"', time: '09:00', timezone: 'UTC', days: 'daily', count: 5, createdBy: 'u-discord' });
  });

  it('reads options typed as text, uses the Slack user’s zone by default, and updates rather than duplicates', async () => {
    await app.registry.runText(slack(), 'digest', 'subscribe causal inference time:8:30am days:weekdays count:3 fill:yes');
    const again = await app.registry.runText(slack(), 'digest', 'subscribe causal inference time:7:15');
    expect(again.fallback).toMatch(/^Updated: /);
    const subs = await app.digests.forChannel('slack', 'C9');
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ label: 'General Machine Learning · Causality', time: '07:15', timezone: 'America/Chicago' });
  });

  it('follows search words that are not a topic', async () => {
    await app.registry.run(discord(), 'digest', { topic: 'expectile regression' }, 'subscribe');
    expect((await app.digests.forChannel('discord', 'chan-1')).map((s) => s.query)).toContain('expectile regression');
  });

  it('follows a topic less some words, names it so, and stops it by the same words', async () => {
    const topic = 'topic:"deep-learning/large-language-models"';
    const all = (await app.library.search(topic, { limit: 50 })).hits;
    // A word of the first paper's title, left out of the digest.
    const word = all[0]!.title.toLowerCase().split(/[^a-z]+/).find((w) => w.length > 5)!;
    const reply = await app.registry.run(discord({ channel: { id: 'chan-x' } }), 'digest', { topic: `llm -${word} -"protein folding"` }, 'subscribe');
    expect(reply.fallback).toMatch(new RegExp(`^Subscribed: Deep Learning · Large Language Models -${word} -"protein folding", every day`));
    const [sub] = await app.digests.forChannel('discord', 'chan-x');
    expect(sub!.query).toBe(`${topic} -${word} -"protein folding"`);
    const kept = (await app.library.search(sub!.query, { limit: 50 })).hits;
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(all.length);
    for (const h of kept) expect(h.title.toLowerCase()).not.toMatch(new RegExp(`\\b${word}\\b`));
    // Words with exclusions stay words (the search reads them), and the topic stops by its words.
    await app.registry.run(discord({ channel: { id: 'chan-x' } }), 'digest', { topic: 'expectile regression -medical' }, 'subscribe');
    expect((await app.digests.forChannel('discord', 'chan-x')).map((s) => s.query)).toContain('expectile regression -medical');
    const stopped = await app.registry.run(discord({ channel: { id: 'chan-x' } }), 'digest', { topic: `llm -${word} -"protein folding"` }, 'unsubscribe');
    expect(stopped.fallback).toMatch(/Large Language Models/);
    expect((await app.digests.forChannel('discord', 'chan-x')).map((s) => s.query)).toEqual(['expectile regression -medical']);
  });

  it('explains invalid times, zones and counts privately', async () => {
    const time = await app.registry.run(discord(), 'digest', { topic: 'llm', time: '25:00' }, 'subscribe');
    expect(time).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/time: "25:00" is not a time of day\. Use HH:MM/) });
    const zone = await app.registry.run(discord(), 'digest', { topic: 'llm', timezone: 'Mars/Base' }, 'subscribe');
    expect(zone).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/IANA name such as Europe\/Berlin/) });
    const count = await app.registry.runText(discord(), 'digest', 'subscribe llm count:100');
    expect(count).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/count: at most 20/) });
    const unknown = await app.registry.runText(discord(), 'digest', 'subscribe llm at:9');
    expect(unknown.fallback).toMatch(/No topic or papers match "llm at:9"/);
    const link = await app.registry.run(discord(), 'digest', { topic: 'https://arxiv.org/abs/1706.03762' }, 'subscribe');
    expect(link.fallback).toMatch(/A digest follows a topic or a search, not one paper/);
  });

  it('refuses changes from members who may not manage the channel, on both platforms', async () => {
    const noPerm = await app.registry.run(discord({ member: { canManageChannel: false } }), 'digest', { topic: 'rl' }, 'subscribe');
    expect(noPerm).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/Manage Channels/) });
    const stranger = await app.registry.runText(slack('U2'), 'digest', 'unsubscribe');
    expect(stranger).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/Only workspace admins and the person who set up this digest/) });
    expect(await app.digests.forChannel('slack', 'C9')).toHaveLength(1);
    const admin = await app.registry.runText(slack('U3', { member: { isAdmin: true } }), 'digest', 'unsubscribe');
    expect(admin.fallback).toMatch(/Stopped the daily digest of General Machine Learning · Causality/);
  });

  it('lists the channel’s digests and stops one of several by menu', async () => {
    const list = await app.registry.runText(discord(), 'digest', 'list');
    expect(JSON.stringify(list.blocks)).toMatch(/Deep Learning · Large Language Models/);
    const ask = await app.registry.runText(discord(), 'digest', 'unsubscribe');
    expect(ask.menu?.choices).toHaveLength(2);
    const done = await app.registry.act(discord(), ask.menu!.choices[0]!.action);
    expect(done.fallback).toMatch(/^Stopped/);
    expect(await app.digests.forChannel('discord', 'chan-1')).toHaveLength(1);
  });

  it('refuses subscribe where a digest could never be posted, before anything else is checked', async () => {
    const dm = await app.registry.run(discord({ channel: { id: 'dm-1', kind: 'dm' }, member: undefined }), 'digest', { topic: 'llm', time: '25:00' }, 'subscribe');
    expect(dm).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/^Digests are posted in channels, and this is a direct message\./) });
    const noBot = await app.registry.run(discord({ channel: { id: 'chan-9' }, bot: { inServer: false, canSend: true } }), 'digest', { topic: 'llm' }, 'subscribe');
    expect(noBot.fallback).toMatch(/^Paper Scout is not a member of this server/);
    const lacking = await app.registry.run(discord({ channel: { id: 'chan-9' }, bot: { canView: false, canSend: false, canEmbed: false } }), 'digest', { topic: 'llm' }, 'subscribe');
    expect(lacking.fallback).toMatch(/^Paper Scout cannot post digests in this channel: it lacks the View Channel, Send Messages and Embed Links permissions here\./);
    expect(await app.digests.forChannel('discord', 'dm-1')).toEqual([]);
    expect(await app.digests.forChannel('discord', 'chan-9')).toEqual([]);
  });

  it('holds nothing it was not told against the bot', () => {
    expect(whyNoDigestsHere({})).toBeUndefined();
    expect(whyNoDigestsHere({ channel: { id: 'c' }, bot: {} })).toBeUndefined();
    expect(whyNoDigestsHere({ channel: { id: 'c', kind: 'channel' }, bot: { inServer: true, canView: true, canSend: true, canEmbed: true } })).toBeUndefined();
  });

  it('still stops a digest set up in a DM before such places were refused', async () => {
    const ctx = slack('U7', { channel: { id: 'D0OLD', kind: 'dm' } });
    await ctx.digests.subscribe({ platform: 'slack', workspace: 'T1', channel: 'D0OLD', query: 'rl', label: '“rl”', time: '09:00', timezone: 'UTC', days: 'daily', count: 5, fill: false, createdBy: 'U7', createdAt: '2026-01-01T00:00:00Z' });
    const list = await app.registry.runText(ctx, 'digest', 'list');
    expect(JSON.stringify(list.blocks)).toContain('Digests are posted in channels, and this is a direct message.');
    const stopped = await app.registry.runText(ctx, 'digest', 'unsubscribe');
    expect(stopped.fallback).toBe('Stopped the daily digest of “rl” in this channel.');
    const none = await app.registry.runText(ctx, 'digest', 'unsubscribe');
    expect(none).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/^Digests are posted in channels, so this conversation has none\./) });
  });

  it('stops a library digest by the word library or source:library, and a topic digest by its topic', async () => {
    const ctx = discord({ channel: { id: 'chan-lib' } });
    const base = { platform: 'discord' as const, workspace: 'g1', channel: 'chan-lib', time: '09:00', timezone: 'UTC', days: 'daily' as const, count: 5, fill: false, createdBy: 'u-discord', createdAt: '2026-01-01T00:00:00Z' };
    const llm = 'topic:"deep-learning/large-language-models"';
    const subscribeAll = async () => {
      for (const sub of await app.digests.forChannel('discord', 'chan-lib')) await app.digests.unsubscribe(sub.id);
      await app.digests.subscribe({ ...base, query: llm, label: 'Deep Learning · Large Language Models' });
      await app.digests.subscribe({ ...base, query: libraryQuery(''), label: '' });
      await app.digests.subscribe({ ...base, query: libraryQuery(llm), label: 'Deep Learning · Large Language Models' });
    };
    const left = async () => (await app.digests.forChannel('discord', 'chan-lib')).map((s) => s.query).sort();

    await subscribeAll();
    // Both library digests are "library": which one?
    const which = await app.registry.runText(ctx, 'digest', 'unsubscribe library');
    expect(which.menu?.choices.map((c) => c.label)).toEqual(["like this channel's library", "Deep Learning · Large Language Models, like this channel's library"]);
    const viaOption = await app.registry.run(ctx, 'digest', { source: 'library' }, 'unsubscribe');
    expect(viaOption.menu?.choices).toHaveLength(2);
    // The topic names two digests (one by search, one by the library) until source says which.
    expect((await app.registry.runText(ctx, 'digest', 'unsubscribe llm')).menu?.choices).toHaveLength(2);
    const libraryLlm = await app.registry.runText(ctx, 'digest', 'unsubscribe llm source:library');
    expect(libraryLlm.fallback).toBe("Stopped the daily digest of Deep Learning · Large Language Models, like this channel's library in this channel.");
    expect(await left()).toEqual([libraryQuery(''), llm].sort());
    const library = await app.registry.runText(ctx, 'digest', 'unsubscribe library');
    expect(library.fallback).toBe("Stopped the daily digest of like this channel's library in this channel.");
    expect(await left()).toEqual([llm]);
    const none = await app.registry.runText(ctx, 'digest', 'unsubscribe source:library');
    expect(none).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/^No digest here follows "library"/) });
    expect((await app.registry.runText(ctx, 'digest', 'unsubscribe llm')).fallback).toMatch(/^Stopped the daily digest of Deep Learning · Large Language Models in this channel/);
  });

  it('points terminal users to a channel', async () => {
    const reply = await app.registry.runText(app.context('terminal', { id: 't' }), 'digest', 'subscribe llm');
    expect(reply.fallback).toMatch(/Digests are posted to Discord or Slack channels/);
  });
});
