/**
 * The command line as an operator meets it, each command a child process as a user runs it:
 * mistakes said in one line with what to do (exit 2, no stack trace unless --debug), every
 * subscription listed, and reports in the terminal's language (LANG) with --json the same in
 * every language. The pseudo-locale (LANG=en-XA) marks every catalog message ⟦…⟧: text outside
 * the marks that is not data was written outside the catalogs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSlot } from '../../../src/digest/schedule.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqliteDigestStore } from '../../../src/store/sqlite/digests.js';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dataDir: string;

const ENGLISH = { LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
const CHINESE = { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
const PSEUDO = { LANG: 'en-XA', LC_ALL: '', LC_MESSAGES: '' };

function cli(args: string[], env: Record<string, string> = ENGLISH) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], {
    cwd: root,
    // No platform credentials: `digest run-due` has none to send with.
    env: { ...process.env, DISCORD_TOKEN: '', SLACK_BOT_TOKEN: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** The text outside the pseudo-locale's marks that is neither data nor numbers: empty when all is well. */
function unmarked(text: string, data: readonly string[]): string[] {
  let rest = text;
  for (let before = ''; before !== rest; ) {
    before = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, '\u0002');
  }
  for (const d of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(d).join('\u0002');
  return rest.split(/[\u0002\s]+/).filter((f) => /\p{L}/u.test(f));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-cli-operator-'));
  expect(cli(['ingest', FIXTURE_PAPERS]).code).toBe(0);
  const db = openDatabase(join(dataDir, 'paperscout.db'));
  const digests = new SqliteDigestStore(db);
  const base = { count: 5, fill: false, createdBy: 'U1', createdAt: '2026-03-01T08:00:00.000Z' } as const;
  const llm = await digests.subscribe({ ...base, platform: 'slack', workspace: 'T1', channel: 'C1', query: 'topic:"deep-learning/large-language-models"', label: 'x', time: '09:30', timezone: 'Europe/Paris', days: 'weekdays' });
  await digests.completeSlot(llm, '2026-03-02T08:30:00.000Z');
  const words = await digests.subscribe({ ...base, platform: 'discord', workspace: 'G1', channel: 'C9', query: 'diffusion', label: '“diffusion”', time: '17:00', timezone: 'UTC', days: 'daily' });
  await digests.pause(words.id, { key: 'digest.pausedForbidden', values: { reason: 'Missing Access' } });
  db.close();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('mistakes', () => {
  it.each([
    [['digest', 'preview', 'C404'], /^Channel C404 has no digests\. paperscout digest list shows the channels that have some\.$/],
    [['search'], /^Give a query: paperscout search "diffusion transformers"$/],
    [['search', 'attention', '--limit', 'abc'], /^--limit takes a whole number from 1 to 200\.$/],
    [['show', 'arxiv:9999.99999'], /^No paper "arxiv:9999\.99999" in the library\. Find its id with paperscout search\.$/],
    [['digest', 'run-due'], /^No platform is configured: set DISCORD_TOKEN and\/or SLACK_BOT_TOKEN \(see \.env\.example\)\.$/],
    [['digest', 'preview', 'C1', '--at', 'tomorrow'], /^--at takes an ISO time/],
    [['digest', 'frobnicate'], /^Usage: paperscout digest list \[--json\] \| /],
    [['topic'], /^Give a topic name: /],
    [['stats', '--bogus'], /^Unknown option '--bogus' \(paperscout help lists the commands and their options\)$/],
    [['search', '--limit'], /^Option '--limit <value>' argument missing \(paperscout help/],
    [['reindex', '--bogus'], /^reindex takes only --merge \(not --bogus\)\.$/],
    [['sync', 'pubmed'], /^paperscout sync knows three sources: /],
    [['frobnicate'], /^There is no command "frobnicate"\. paperscout help lists the commands\.$/],
  ])('%j: one line saying what to do, exit 2', (args, line) => {
    const { code, err, out } = cli(args);
    expect({ code, out, lines: err.trimEnd().split('\n') }).toEqual({ code: 2, out: '', lines: [expect.stringMatching(line)] });
  });

  it('a topic name that matches none: the closest ones, no stack trace', () => {
    const { code, err } = cli(['topic', 'graphical wombats']);
    expect(code).toBe(2);
    expect(err).toMatch(/^No single topic matches "graphical wombats"\. Did you mean:\n {2}\S/);
    expect(err).not.toMatch(/^\s+at /m);
  });

  it('with --debug, the stack trace too', () => {
    const { code, err } = cli(['show', 'arxiv:9999.99999', '--debug']);
    expect(code).toBe(2);
    expect(err).toMatch(/^No paper "arxiv:9999\.99999" in the library\.[^\n]*\nUserError: No paper[^\n]*\n\s+at show \(/);
  });

  it('help lists every command, digest list among them', () => {
    const { code, out } = cli(['help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}digest list \[--json\] {20}every channel's digests/m);
    expect(out).toContain('--debug');
  });
});

describe('paperscout digest list', () => {
  it('shows every subscription: platform, team, channel, topic, days, time, zone, next run, last sent', () => {
    const { code, out } = cli(['digest', 'list']);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^platform +team +channel +topic +days +time +zone +next run +last sent$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^discord +G1 +C9 +“diffusion” +daily +17:00 +UTC +paused +never$/),
      expect.stringMatching(/^slack +T1 +C1 +Deep Learning · Large Language Models +weekdays +09:30 +Europe\/Paris +\d{4}-\d\d-\d\d 09:30 +2026-03-02 09:30$/),
    ]);
    // Columns line up.
    expect([lines[1]!.indexOf('G1'), lines[2]!.indexOf('T1')]).toEqual([lines[0]!.indexOf('team'), lines[0]!.indexOf('team')]);
    expect([lines[1]!.indexOf('never'), lines[2]!.indexOf('2026-03-02')]).toEqual([lines[0]!.indexOf('last sent'), lines[0]!.indexOf('last sent')]);
  });

  it('--json: every subscription with its next run and last one sent, the same whatever the language', () => {
    const english = cli(['digest', 'list', '--json']);
    const chinese = cli(['digest', 'list', '--json'], CHINESE);
    expect(chinese.out).toBe(english.out);
    const subs = JSON.parse(english.out) as Array<Record<string, unknown>>;
    expect(subs).toEqual([
      expect.objectContaining({ platform: 'discord', team: 'G1', channel: 'C9', query: 'diffusion', topic: '“diffusion”', days: 'daily', time: '17:00', timezone: 'UTC', status: 'paused', nextRun: null, lastSent: null }),
      expect.objectContaining({ platform: 'slack', team: 'T1', channel: 'C1', topic: 'Deep Learning · Large Language Models', days: 'weekdays', time: '09:30', timezone: 'Europe/Paris', status: 'active', lastSent: '2026-03-02T08:30:00.000Z' }),
    ]);
    expect(subs[0]!.pausedReason).toMatch(/cannot post in this channel \(Missing Access\)/);
    const next = new Date(subs[1]!.nextRun as string);
    expect(next.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(next.toISOString()).toBe(nextSlot({ time: '09:30', timezone: 'Europe/Paris', days: 'weekdays' }, new Date(next.getTime() - 1))!.toISOString());
  });
});

describe("the terminal's language", () => {
  it('ingest, stats, digest list and errors in Chinese; --json unchanged', () => {
    const file = join(dataDir, 'one.jsonl');
    writeFileSync(file, '{"title":"A Fine Paper About Wombats","authors":["Ann Lee"]}\n{"title":"","authors":[]}\n');
    const ingest = cli(['ingest', file], CHINESE);
    expect(ingest.code).toBe(0);
    expect(ingest.out).toContain('1 个文件中的 2 条记录：新增 1，更新 0，未变 0，合并重复 0 条，拒收 1\n');
    expect(ingest.err).toMatch(/one\.jsonl:2 \[第 1 条\]：title/);
    expect(ingest.out).toMatch(/^论文库：.+ 中共 30 篇论文（导入 \d+\.\d 秒，搜索索引 \d+\.\d 秒）$/m);
    const stats = cli(['stats'], CHINESE);
    expect(stats.out).toMatch(/^论文：30 篇（索引第 \d+ 代，[\d,]+ 个不同的词）$/m);
    expect(stats.out).toMatch(/^会议\/期刊：[^\n]*NeurIPS \d+；/m);
    const list = cli(['digest', 'list'], CHINESE);
    expect(list.out.split('\n')[0]).toMatch(/^平台 +团队 +频道 +方向 +日期 +时间 +时区 +下次运行 +上次发送$/);
    expect(list.out).toMatch(/深度学习 · 大语言模型 +工作日 +09:30/);
    expect(list.out).toMatch(/已暂停 +从未/);
    expect(cli(['show', 'nope'], CHINESE).err).toBe('库中没有论文“nope”。可用 paperscout search 查找它的 id。\n');
    expect(cli(['stats', '--json'], CHINESE).out).toBe(cli(['stats', '--json']).out);
  });

  it('every word of ingest, reindex, stats, digest list, help and an error comes from the catalogs', () => {
    const file = join(dataDir, 'two.jsonl');
    writeFileSync(file, '{"title":"Another Paper About Wombats","authors":["Bo Li"]}\n');
    const data = [dataDir, file, 'NeurIPS', 'ICLR', 'ICML', 'CVPR', 'ACL', 'EMNLP', 'arXiv', 'JMLR', 'Nature', 'discord', 'slack', 'G1', 'C9', 'T1', 'C1', 'Europe/Paris', 'UTC', '“diffusion”', 'Deep Learning · Large Language Models'];
    for (const args of [['ingest', file], ['reindex'], ['stats'], ['digest', 'list'], ['help'], ['show', 'nope']]) {
      const { out, err } = cli(args, PSEUDO);
      expect({ args, words: unmarked(out + err, data) }).toEqual({ args, words: [] });
      expect(out + err).toContain('⟦');
    }
  });
});
