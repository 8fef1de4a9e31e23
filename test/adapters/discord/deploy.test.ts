/**
 * Command definitions from the registry, the diff against what Discord has, and
 * `npm run deploy:discord` against the loopback Discord.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandDefinitions, diffCommands, formatDiff, type CommandDefinition } from '../../../adapters/discord/commands.js';
import { deployCommands } from '../../../adapters/discord/deploy.js';
import { COMMANDS } from '../../../src/commands/registry.js';
import { FakeDiscord } from './fakeDiscord.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const definitions = commandDefinitions(COMMANDS);
const byName = (name: string) => definitions.find((d) => d.name === name);

describe('commandDefinitions', () => {
  it('turns /paper, /topic and /help into Discord definitions, autocomplete and limits included', () => {
    expect(byName('paper')).toEqual({
      type: 1,
      name: 'paper',
      description: 'Search papers by title, author or keywords',
      description_localizations: { 'zh-CN': '按标题、作者或关键词检索论文', 'zh-TW': '按标题、作者或关键词检索论文' },
      options: [
        {
          type: 3,
          name: 'query',
          description: 'Title, author or keywords; filters: author: venue: year: topic: cited: sort:new',
          description_localizations: {
            'zh-CN': '标题、作者或关键词（中英文均可）；筛选：author: venue: year: topic: cited: sort:new',
            'zh-TW': '标题、作者或关键词（中英文均可）；筛选：author: venue: year: topic: cited: sort:new',
          },
          autocomplete: true,
          min_length: 1,
          max_length: 6000,
        },
        {
          // No max_length: Discord's own, 6,000, is less than the search reads.
          type: 3,
          name: 'like',
          description: 'Or paste an abstract or a paragraph: the papers closest to it (related work)',
          description_localizations: { 'zh-CN': '或粘贴一段摘要或段落：找出与之最相近的论文（相关工作）', 'zh-TW': '或粘贴一段摘要或段落：找出与之最相近的论文（相关工作）' },
        },
      ],
    });
    expect(byName('topic')).toEqual({
      type: 1,
      name: 'topic',
      description: 'Browse the papers of a subject area, or list the areas',
      description_localizations: { 'zh-CN': '浏览某个研究方向的论文，或列出所有方向', 'zh-TW': '浏览某个研究方向的论文，或列出所有方向' },
      options: [
        {
          type: 3,
          name: 'name',
          description: 'A subject area such as "Deep Learning · Large Language Models" (leave empty to list them)',
          description_localizations: {
            'zh-CN': '研究方向，例如“大语言模型”或 llm（留空则列出全部）',
            'zh-TW': '研究方向，例如“大语言模型”或 llm（留空则列出全部）',
          },
          autocomplete: true,
          max_length: 200,
        },
      ],
    });
    expect(byName('help')).toEqual({
      type: 1,
      name: 'help',
      description: 'How to search papers with Paper Scout',
      description_localizations: { 'zh-CN': '如何用 Paper Scout 检索论文', 'zh-TW': '如何用 Paper Scout 检索论文' },
    });
  });

  it('declares every command of the registry within Discord’s rules', () => {
    expect(definitions.map((d) => d.name)).toEqual(COMMANDS.map((c) => c.name));
    const check = (options: any[] = []) => {
      expect(options.length).toBeLessThanOrEqual(25);
      const required = options.map((o) => o.required === true);
      expect(required).toEqual([...required].sort((a, b) => Number(b) - Number(a)));
      for (const o of options) {
        expect(o.name).toMatch(/^[a-z0-9_-]{1,32}$/);
        expect(o.description.length).toBeGreaterThan(0);
        expect(o.description.length).toBeLessThanOrEqual(100);
        if (o.autocomplete) expect(o.choices).toBeUndefined();
        check(o.options);
      }
    };
    for (const d of definitions) {
      expect(d.description.length).toBeLessThanOrEqual(100);
      check(d.options as any[]);
    }
  });
});

describe('diffCommands', () => {
  // As Discord returns them: ids, versions and defaults, options without `required: false`.
  const registered = (defs: readonly CommandDefinition[]) =>
    defs.map((d, i) => ({ id: `12345678901234567${i}`, application_id: '1', version: '1', default_member_permissions: null, dm_permission: true, nsfw: false, contexts: null, integration_types: [0], ...d }));

  it('sees nothing to do when Discord has the same commands', () => {
    expect(diffCommands(definitions, registered(definitions))).toEqual({ added: [], changed: [], removed: [], unchanged: definitions.map((d) => d.name) });
  });

  it('names what is new, what changed (and which fields), and what goes', () => {
    const remote = registered(definitions)
      .filter((d) => d.name !== 'help')
      .map((d) => (d.name === 'topic' ? { ...d, description: 'Old words' } : d.name === 'paper' ? { ...d, options: [{ ...(d.options as any[])[0], max_length: 500, autocomplete: false }, ...(d.options as any[]).slice(1)] } : d));
    remote.push({ ...remote[0]!, name: 'old', id: '999' });
    const diff = diffCommands(definitions, remote);
    expect(diff).toEqual({
      added: ['help'],
      changed: [
        { name: 'paper', fields: ['options.query.autocomplete', 'options.query.max_length'] },
        { name: 'topic', fields: ['description'] },
      ],
      removed: ['old'],
      unchanged: definitions.map((d) => d.name).filter((n) => !['help', 'paper', 'topic'].includes(n)),
    });
    expect(formatDiff(diff).slice(0, 4)).toEqual(['+ /help (new)', '~ /paper: options.query.autocomplete, options.query.max_length', '~ /topic: description', '- /old (removed)']);
  });

  it('says what /paper like: changes in a /paper registered before it: the query optional, like added', () => {
    const before = registered(definitions).map((d) => (d.name === 'paper' ? { ...d, options: [{ ...(d.options as any[])[0], required: true }] } : d));
    expect(diffCommands(definitions, before).changed).toEqual([{ name: 'paper', fields: ['options.query.required', 'options.like (added)'] }]);
  });

  it('treats Chinese descriptions and choice names as part of a definition', () => {
    const remote = registered(definitions).map((d) => {
      if (d.name === 'paper') return { ...d, description_localizations: { 'zh-CN': '旧的说明' } };
      if (d.name !== 'digest') return d;
      const options = (d.options as any[]).map((sub) =>
        sub.name !== 'subscribe'
          ? sub
          : { ...sub, options: sub.options.map((o: any) => (o.name === 'days' ? { ...o, choices: o.choices.map(({ name_localizations: _, ...c }: any) => c) } : o)) },
      );
      return { ...d, options };
    });
    // Discord may send the dictionaries in another key order, or null where there are none.
    const help = remote.find((d) => d.name === 'help')!;
    help.description_localizations = Object.fromEntries(Object.entries(help.description_localizations!).reverse());
    expect(diffCommands(definitions, remote).changed).toEqual([
      { name: 'paper', fields: ['description_localizations'] },
      { name: 'digest', fields: ['options.subscribe.days.choices'] },
    ]);
    const none = { type: 1, name: 'x', description: 'd' } as CommandDefinition;
    expect(diffCommands([none], [{ ...none, description_localizations: null }]).changed).toEqual([]);
  });

  it('offers the days choices with Chinese names', () => {
    const subscribe = (byName('digest')!.options as any[]).find((o) => o.name === 'subscribe');
    expect(subscribe.options.find((o: any) => o.name === 'days').choices).toEqual([
      { name: 'daily', name_localizations: { 'zh-CN': '每天', 'zh-TW': '每天' }, value: 'daily' },
      { name: 'weekdays', name_localizations: { 'zh-CN': '工作日', 'zh-TW': '工作日' }, value: 'weekdays' },
    ]);
    expect(subscribe.description_localizations).toEqual({ 'zh-CN': '每天在这里推送某个方向的新论文', 'zh-TW': '每天在这里推送某个方向的新论文' });
  });

  it('notices added, removed and reordered options', () => {
    const local: CommandDefinition[] = [{ type: 1, name: 'x', description: 'd', options: [{ type: 3, name: 'a', description: 'a' }, { type: 3, name: 'b', description: 'b' }] }];
    expect(diffCommands(local, [{ name: 'x', description: 'd', options: [{ type: 3, name: 'a', description: 'a' }, { type: 3, name: 'c', description: 'c' }] }]).changed).toEqual([
      { name: 'x', fields: ['options.b (added)', 'options.c (removed)'] },
    ]);
    expect(diffCommands(local, [{ name: 'x', description: 'd', options: [{ type: 3, name: 'b', description: 'b' }, { type: 3, name: 'a', description: 'a' }] }]).changed).toEqual([
      { name: 'x', fields: ['options (order)'] },
    ]);
  });
});

describe('deploy:discord', () => {
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await FakeDiscord.start();
  });
  afterAll(async () => fake?.close());

  it('registers the commands globally with one bulk overwrite, and says what changed', async () => {
    const lines: string[] = [];
    const result = await deployCommands({ token: fake.token, apiUrl: fake.apiUrl }, (line) => lines.push(line));
    expect(result).toMatchObject({ applicationId: fake.applicationId, written: true, diff: { added: definitions.map((d) => d.name) } });
    expect(lines[0]).toBe(`Commands of application ${fake.applicationId} in all servers (global; Discord may take up to an hour to show changes):`);
    expect(lines).toContain('  + /paper (new)');
    expect(lines.at(-1)).toBe(`Registered ${definitions.length} commands: ${definitions.length} new, 0 changed, 0 removed, 0 unchanged.`);
    const puts = fake.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.path)).toEqual([`/applications/${fake.applicationId}/commands`]);
    expect(puts[0]!.body).toEqual(definitions);
    expect(fake.commands.get('global')?.map((c) => c.name)).toEqual(definitions.map((d) => d.name));

    const again: string[] = [];
    expect((await deployCommands({ token: fake.token, apiUrl: fake.apiUrl }, (line) => again.push(line))).written).toBe(false);
    expect(again.at(-1)).toBe('Nothing to change.');
    expect(fake.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('reads what Discord has with its localizations, and registers a changed translation', async () => {
    const gets = fake.requests.filter((r) => r.kind === 'commands' && r.method === 'GET');
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.every((r) => r.query.with_localizations === 'true')).toBe(true);
    const saved = fake.commands.get('global')!;
    fake.commands.set('global', saved.map((c) => (c.name === 'topic' ? { ...c, description_localizations: { 'zh-CN': '旧说明', 'zh-TW': '旧说明' } } : c)));
    const lines: string[] = [];
    const result = await deployCommands({ token: fake.token, apiUrl: fake.apiUrl }, (line) => lines.push(line));
    expect(result.written).toBe(true);
    expect(lines).toContain('  ~ /topic: description_localizations');
    expect(fake.commands.get('global')?.find((c) => c.name === 'topic')?.description_localizations['zh-CN']).toBe('浏览某个研究方向的论文，或列出所有方向');
  });

  it('the script registers to DISCORD_GUILD_ID, replacing what changed there', async () => {
    const guild = '1190000000000000100';
    fake.commands.set(guild, [{ id: '1', name: 'old', description: 'gone', type: 1 }, { id: '2', ...byName('help'), description: 'Older help' }]);
    const run = await script({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DISCORD_GUILD_ID: guild, DISCORD_APPLICATION_ID: fake.applicationId });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Commands of application ${fake.applicationId} in server ${guild}:`);
    expect(run.stdout).toContain('  ~ /help: description\n');
    expect(run.stdout).toContain('  - /old (removed)\n');
    expect(run.stdout).toContain(`: ${definitions.length - 1} new, 1 changed, 1 removed, 0 unchanged.`);
    expect(fake.commands.get(guild)?.map((c) => c.name)).toEqual(definitions.map((d) => d.name));
    expect(fake.commands.get(guild)?.find((c) => c.name === 'help')?.id).toBe('2');
  });

  it('the script stops with what to do when DISCORD_TOKEN is missing', async () => {
    const run = await script({});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^deploy:discord: DISCORD_TOKEN is not set\. Copy the bot token/);
  });
});

/** Runs `npm run deploy:discord`'s command in an empty directory (no .env) with only `env` set. */
async function script(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'paperscout-deploy-'));
  try {
    // As `npm run deploy:discord` runs it: tsx (located from the repository, not the empty cwd).
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, join(root, 'adapters/discord/deploy.ts')], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, LOG_FORMAT: 'json', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stdout, stderr };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
