/**
 * `/digest subscribe source:library`: digests ranked by the channel's reading list and shared
 * papers, through the command, the runner and a sender that keeps what it is given, over a
 * core opened on the recommendation fixture (a lab's papers, a federated-learning group).
 */
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/commands/types.js';
import { runDueDigests } from '../../src/digest/runner.js';
import type { DigestPartId, DigestSender } from '../../src/digest/sender.js';
import type { Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const PAPERS = fileURLToPath(new URL('../fixtures/recommend/papers.jsonl', import.meta.url));
const LAB = ['Tactile Servoing for In-Hand Rotation of Unknown Objects', 'Learning Regrasp Policies from Fingertip Contact Maps', 'Slip Detection with Vibrotactile Arrays on a Dexterous Hand'];
const FEDERATED = ['Client Drift Correction in Federated Optimization', 'Secure Aggregation with Fewer Rounds', 'Personalized Models for Heterogeneous Clients'];

class KeepingSender implements DigestSender {
  readonly platform = 'slack' as const;
  readonly duplicateWindowMs = 0;
  posts: Array<{ channel: string; reply: Reply }> = [];
  async post(channel: string, reply: Reply, _id: DigestPartId): Promise<void> {
    this.posts.push({ channel, reply });
  }
  async find(): Promise<boolean> {
    return false;
  }
  cards(channel: string) {
    return this.posts.filter((p) => p.channel === channel).flatMap((p) => p.reply.blocks.flatMap((b) => (b.kind === 'paper' ? [b.paper] : [])));
  }
}

let app: TestApp;
let clock = new Date('2026-01-01T00:00:00Z');
beforeAll(async () => {
  // The papers arrive on 1 January; the subscriptions are older, so all of them are new.
  app = await createTestApp({ paths: [PAPERS], now: () => clock });
  clock = new Date('2025-12-01T00:00:00Z');
});
afterAll(() => app.dispose());

const manager = (channel: string, extra: Partial<CommandContext> = {}) =>
  app.context('slack', { id: 'U-MIRA', name: 'Mira' }, { channel: { id: channel, name: channel.toLowerCase(), kind: 'channel' }, workspace: { id: 'T1' }, member: { isAdmin: false, canManageChannel: true }, ...extra });

async function idOf(title: string): Promise<string> {
  const hit = (await app.library.search(title, { limit: 1 })).hits[0];
  expect(hit?.title).toBe(title);
  return hit!.id;
}

async function fill(kind: 'member' | 'channel', id: string, titles: string[]) {
  for (const title of titles) {
    clock = new Date(clock.getTime() + 60_000);
    await app.stores.readingLists.add({ platform: 'slack', team: 'T1', kind, id }, await idOf(title), { id: 'U-MIRA' }, clock);
  }
}

describe('/digest subscribe source:library', () => {
  it("ranks the new papers by the channel's list and shares, says why, and leaves a member's own library out", async () => {
    await fill('channel', 'C-LAB', LAB.slice(0, 2));
    await app.stores.readingLists.recordShare('slack', 'T1', 'C-LAB', { paperId: await idOf(LAB[2]!), by: { id: 'U-INES' }, at: clock, message: 'C-LAB:1' });
    // Mira's own library is about federated learning: it must not shape the channel's digest.
    await fill('member', 'U-MIRA', FEDERATED);
    const subscribed = await app.registry.runText(manager('C-LAB'), 'digest', 'subscribe source:library time:09:00 timezone:UTC');
    expect(subscribed.fallback).toMatch(/like this channel's library/);

    const sender = new KeepingSender();
    await runDueDigests({ digests: app.digests, library: app.library, states: app.states, readingLists: app.stores.readingLists, senders: { slack: sender }, log: pino({ level: 'silent' }) }, new Date('2026-01-02T09:00:00Z'));
    const cards = sender.cards('C-LAB');
    const titles = cards.map((c) => c.title);
    expect(titles.slice(0, 2).sort()).toEqual(['Contact-Rich Reorientation with Sparse Tactile Feedback', 'Language Instructions for Bimanual Assembly']);
    for (const t of [...LAB, ...FEDERATED, 'Fair Participation of Devices in Collaborative Training', 'Backdoor Defenses for Cross-Silo Training']) expect(titles).not.toContain(t);
    for (const card of cards) expect(card.provenance).toMatch(/^like “(Tactile Servoing|Learning Regrasp|Slip Detection)[^”]*”/);
    expect(sender.posts[0]!.reply.blocks[0]).toMatchObject({ kind: 'heading', text: expect.stringMatching(/^Like this channel's library/i) });
  });

  it('holds nothing while the channel has fewer than 3 papers', async () => {
    await fill('channel', 'C-NEW', LAB.slice(0, 2));
    await app.registry.runText(manager('C-NEW'), 'digest', 'subscribe source:library time:09:00 timezone:UTC');
    const sender = new KeepingSender();
    await runDueDigests({ digests: app.digests, library: app.library, states: app.states, readingLists: app.stores.readingLists, senders: { slack: sender }, log: pino({ level: 'silent' }) }, new Date('2026-01-02T09:00:00Z'));
    const posted = sender.posts.filter((p) => p.channel === 'C-NEW');
    expect(posted).toHaveLength(1);
    expect(sender.cards('C-NEW')).toEqual([]);
  });

  it('narrows to a topic, and refuses search words it cannot rank within', async () => {
    const words = await app.registry.runText(manager('C-LAB'), 'digest', 'subscribe source:library topic:"okafor regrasp"').catch((err: Error) => err);
    expect(String(words instanceof Error ? words.message : words.fallback)).toMatch(/search words such as “okafor regrasp” cannot narrow it/);
    const topic = await app.registry.runText(manager('C-LAB'), 'digest', 'subscribe source:library topic:llm');
    expect(topic.fallback).toMatch(/Large Language Models, like this channel's library/);
  });
});
