/**
 * No text outside the catalog: every command, button, error and digest is rendered under a
 * pseudo-locale whose messages come out marked ⟦…⟧, and the test fails on any letters that are
 * neither marked nor data (paper titles, authors, venues, topic names, what the user typed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMMANDS, CommandRegistry } from '../../src/commands/registry.js';
import { defineCommand, type CommandContext, type Platform } from '../../src/commands/types.js';
import { renderDigest } from '../../src/digest/compose.js';
import { PSEUDO_LOCALE, messages } from '../../src/i18n/index.js';
import type { Block, Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const pseudo = messages(PSEUDO_LOCALE);
let app: TestApp;
/** Text that is data, not the interface's words. */
let data: string;
const typed: string[] = [];

beforeAll(async () => {
  app = await createTestApp({ now: () => new Date('2026-11-29T10:00:00Z') });
  const papers: unknown[] = [];
  for await (const row of app.store.rowsForIndex()) papers.push(row);
  const words: string[] = [];
  for (const row of papers as unknown as Array<Record<string, unknown>>) {
    for (const field of ['title', 'venue', 'status', 'id']) if (typeof row[field] === 'string') words.push(row[field] as string);
    if (Array.isArray(row.authors)) words.push(...(row.authors as string[]), (row.authors as string[]).join(', '));
    if (typeof row.authors === 'string') words.push(row.authors);
  }
  for (const t of app.taxonomy.topics) words.push(...Object.values(t.labels), ...Object.values(t.names));
  for (const a of app.taxonomy.areas) words.push(...Object.values(a.names));
  data = words.join('\u0001');
});
afterAll(() => app?.dispose());

/** The letters of `text` that are neither catalog text (marked) nor data: empty when all is well. */
function unmarked(text: string): string[] {
  let rest = text;
  // Messages nest (a message's value can be a message): take out the innermost first.
  for (let before = ''; before !== rest; ) {
    before = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, '\u0002');
  }
  const corpus = `${data}\u0001${typed.join('\u0001')}`;
  return rest
    // Numbers (years, counts, positions) are not words.
    .replace(/(^|[\s\p{P}])\d+(?=[\s\p{P}]|$)/gu, '$1\u0002')
    .split(/[\u0002·,;:|—–()“”"'«»\[\]{}…\n]|\s-\s|\s{2,}/)
    // Numbering ("1. Title") is not words.
    .map((f) => f.trim().replace(/^\d*\.\s+/, ''))
    .filter((f) => /\p{L}/u.test(f))
    .filter((f) => !corpus.includes(f) && !/^https?:\/\//.test(f));
}

function textsOf(reply: Reply): string[] {
  const out = [reply.fallback];
  const block = (b: Block) => {
    switch (b.kind) {
      case 'heading':
      case 'note':
        out.push(b.text);
        break;
      case 'text':
        out.push(typeof b.text === 'string' ? b.text : b.text.map((s) => s.text).join(''));
        break;
      case 'list':
        if (b.heading) out.push(b.heading);
        for (const item of b.items) out.push(item.text, item.detail ?? '');
        break;
      case 'paper':
        // The paper's own text is data; its topics and link names are the reader's words.
        out.push(...b.paper.topics, ...b.paper.links.map((l) => l.label));
        break;
      case 'divider':
        break;
    }
  };
  reply.blocks.forEach(block);
  for (const row of reply.buttons ?? []) for (const b of row) out.push(b.label);
  if (reply.menu) out.push(reply.menu.placeholder, ...reply.menu.choices.flatMap((c) => [c.label, c.description ?? '']));
  return out.filter(Boolean);
}

function expectAllFromCatalog(reply: Reply, what: string): void {
  expect(reply.locale, what).toBe(PSEUDO_LOCALE);
  const problems = textsOf(reply).flatMap((t) => unmarked(t).map((f) => `${f}   (in: ${t.slice(0, 120)})`));
  expect(problems, what).toEqual([]);
}

function ctx(platform: Platform, extra: Partial<CommandContext> = {}): CommandContext {
  const where = platform === 'terminal' ? {} : { channel: { id: `${platform}-chan` }, workspace: { id: 'w1' } };
  const member = platform === 'discord' ? { member: { canManageChannel: true } } : platform === 'slack' ? { member: { isAdmin: true } } : {};
  return app.context(platform, { id: 'u1', timezone: 'Asia/Shanghai' }, { ...where, ...member, ...extra, i18n: pseudo });
}

async function text(c: CommandContext, name: string, input: string): Promise<Reply> {
  typed.push(input, ...input.split(/\s+/));
  return app.registry.runText(c, name, input);
}

describe('no text outside the catalog', () => {
  it('the mark is on catalog text and catches text that is not (the check is not vacuous)', () => {
    expect(pseudo.t('paper.similar')).toBe('⟦Similar papers⟧');
    expect(unmarked('⟦Similar papers⟧ · Attention Is All You Need')).toEqual([]);
    expect(unmarked('Similar papers')).toEqual(['Similar papers']);
    expect(unmarked('⟦Papers for “⟦x⟧”⟧ and more')).toEqual(['and more']);
  });

  it('/paper: pages, buttons, the detail view, notes and errors', async () => {
    const c = ctx('discord');
    const page = await text(c, 'paper', 'learning');
    expectAllFromCatalog(page, 'first page');
    const next = page.buttons![0]!.find((b) => b.id === 'next')!;
    expectAllFromCatalog(await app.registry.act(c, next.action!), 'next page');
    const detail = await app.registry.act(c, page.menu!.choices[0]!.action);
    expectAllFromCatalog(detail, 'detail');
    expectAllFromCatalog(await app.registry.act(c, detail.buttons![0]![0]!.action!), 'back');
    for (const query of ['qwzxv blorpt', 'venue:nowhere x', 'topic:astrology x', 'year:abc sort:sideways "open quote', 'foo:bar diffusion', 'Yoshua Bengio', 'arxiv.org/abs/2999.00001', '扩散模型 量子纠缠', '量子纠缠', 'x'.repeat(1001)]) {
      expectAllFromCatalog(await text(c, 'paper', query), query.slice(0, 40));
    }
    expectAllFromCatalog(await app.registry.run(c, 'paper', {}), 'empty query');
    expectAllFromCatalog(await app.registry.act(c, 'paper:page:nostate:1'), 'expired');
    expectAllFromCatalog(await app.registry.act(c, 'paper:page'), 'broken button');
    expectAllFromCatalog(await app.registry.act(c, 'paper:open:99999999'), 'paper gone');
    expectAllFromCatalog(await app.registry.act(c, 'nothing:here'), 'stale button');
  });

  it('/topic, /help and unknown commands', async () => {
    const c = ctx('slack');
    for (const input of ['', 'llm', '大语言模型', 'deep learning', 'qwzx blorf']) expectAllFromCatalog(await text(c, 'topic', input), `/topic ${input}`);
    expectAllFromCatalog(await app.registry.act(c, 'topic:show:nope/nope'), 'topic gone');
    expectAllFromCatalog(await app.registry.runText(c, 'help', ''), '/help');
    expectAllFromCatalog(await app.registry.runText(c, 'frobnicate', ''), 'unknown command');
    expectAllFromCatalog(await app.registry.runText(c, 'digest', 'frobnicate'), 'unknown subcommand');
  });

  it('/digest: subscribing, listing, stopping, and every refusal', async () => {
    const c = ctx('discord');
    expectAllFromCatalog(await app.registry.run(c, 'digest', { topic: 'llm', time: '08:30' }, 'subscribe'), 'subscribe');
    typed.push('expectile regression');
    expectAllFromCatalog(await app.registry.run(c, 'digest', { topic: 'expectile regression', fill: true, days: 'weekdays' }, 'subscribe'), 'subscribe words');
    expectAllFromCatalog(await text(c, 'digest', 'list'), 'list');
    expectAllFromCatalog(await text(c, 'digest', 'unsubscribe'), 'which one');
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ topic: 'llm', time: '25:00' }, 'bad time'],
      [{ topic: 'llm', timezone: 'Mars/Base' }, 'bad zone'],
      [{ topic: 'llm', count: 99 }, 'bad count'],
      [{ topic: 'llm', count: 'many' }, 'not a count'],
      [{ topic: 'llm', days: 'sometimes' }, 'bad days'],
      [{ topic: '' }, 'no topic'],
      [{ topic: 'https://arxiv.org/abs/1706.03762' }, 'one paper'],
      [{ topic: 'qwzx blorpt' }, 'nothing matches'],
    ];
    for (const [options, what] of refusals) {
      typed.push(...Object.values(options).map(String));
      expectAllFromCatalog(await app.registry.run(c, 'digest', options, 'subscribe'), what);
    }
    expectAllFromCatalog(await text(c, 'digest', 'subscribe llm fill:maybe'), 'bad fill');
    expectAllFromCatalog(await app.registry.run(ctx('discord', { member: { canManageChannel: false } }), 'digest', { topic: 'llm' }, 'subscribe'), 'no permission');
    expectAllFromCatalog(await app.registry.run(ctx('terminal'), 'digest', { topic: 'llm' }, 'subscribe'), 'terminal');
    expectAllFromCatalog(await text(c, 'digest', 'unsubscribe topic:astrology'), 'follows nothing');
    const [sub] = await app.digests.forChannel('discord', 'discord-chan');
    await app.digests.pause(sub!.id, { key: 'digest.pausedForbidden', values: { reason: 'Discord said 403 Missing Access' } });
    typed.push('Discord said 403 Missing Access');
    expectAllFromCatalog(await text(c, 'digest', 'list'), 'list with a paused digest');
    expectAllFromCatalog(await app.registry.act(c, `digest:stop:${sub!.id}`), 'stopped');
    expectAllFromCatalog(await app.registry.act(c, `digest:stop:${sub!.id}`), 'already gone');
    expectAllFromCatalog(await text(ctx('slack', { channel: { id: 'empty' } }), 'digest', 'unsubscribe'), 'no digests');
    // Where a digest cannot be posted: conversations, a server without the bot, missing permissions.
    expectAllFromCatalog(await text(ctx('slack', { channel: { id: 'D1', kind: 'dm' } }), 'digest', 'subscribe llm'), 'in a DM');
    expectAllFromCatalog(await text(ctx('slack', { channel: { id: 'G1', kind: 'group-dm' } }), 'digest', 'subscribe llm'), 'in a group DM');
    expectAllFromCatalog(await text(ctx('slack', { channel: { id: 'D1', kind: 'dm' } }), 'digest', 'list'), 'list in a DM');
    expectAllFromCatalog(await text(ctx('discord', { bot: { inServer: false } }), 'digest', 'subscribe llm'), 'not in the server');
    expectAllFromCatalog(await text(ctx('discord', { bot: { canView: true, canSend: false, canEmbed: false } }), 'digest', 'subscribe llm'), 'missing permissions');
    await app.registry.run(c, 'digest', { topic: 'llm' }, 'subscribe');
    expectAllFromCatalog(await text(ctx('discord', { bot: { canEmbed: false } }), 'digest', 'list'), 'list where it cannot post');
  });

  it('digests: a header, papers, More, and the one-line "nothing new"', async () => {
    const sub = await app.digests.subscribe({
      platform: 'slack', workspace: 'T1', channel: 'C-digest', query: 'topic:"deep-learning/large-language-models"', label: 'Deep Learning · Large Language Models',
      time: '09:00', timezone: 'Asia/Shanghai', days: 'daily', count: 5, fill: false, createdBy: 'u1', createdAt: '2025-01-01T00:00:00Z',
    });
    const ids = (await app.library.search('language', { limit: 7 })).hits.map((h) => h.id);
    const deps = { library: app.library, states: app.states, now: new Date('2026-11-29T10:00:00Z'), messages: pseudo };
    const slot = new Date('2026-11-29T01:00:00Z');
    for (const [papers, fill] of [[ids, false], [ids.slice(0, 2), true], [[], false]] as const) {
      for (const part of await renderDigest(deps, sub, { papers: [...papers], fill, since: '2026-11-28T01:00:00Z' }, slot)) expectAllFromCatalog(part.reply, `digest ${papers.length} ${fill}`);
    }
  });

  it('every command, subcommand and button of the registry, bare and with broken arguments, on every platform', async () => {
    // A sweep that covers commands added later too: their first replies and refusals.
    for (const platform of ['discord', 'slack', 'terminal'] as const) {
      const c = ctx(platform);
      for (const command of COMMANDS) {
        expectAllFromCatalog(await app.registry.runText(c, command.name, ''), `${platform} /${command.name}`);
        for (const sub of command.subcommands ?? []) expectAllFromCatalog(await app.registry.runText(c, command.name, sub.name), `${platform} /${command.name} ${sub.name}`);
        for (const verb of Object.keys(command.actions ?? {})) {
          for (const args of ['', ':x', ':1:x:y', ':999999']) expectAllFromCatalog(await app.registry.act(c, `${command.name}:${verb}${args}`), `${platform} ${command.name}:${verb}${args}`);
        }
      }
    }
  });

  it('the apology for an internal error', async () => {
    const failing = defineCommand({ name: 'boom', options: z.object({}), fromText: () => ({}), run: () => Promise.reject(new Error('kaput')) });
    const reply = await new CommandRegistry([failing]).runText({ ...ctx('terminal'), log: app.log }, 'boom', '');
    expectAllFromCatalog(reply, 'apology');
  });
});
