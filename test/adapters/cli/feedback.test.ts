/**
 * `paperscout feedback export` as an operator runs it: a child process over a DATA_DIR holding
 * the test corpus, with a member's ratings and follows written by the store as the bot keeps
 * them, and a bad `--member` answered in one line with exit code 2.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqliteRatingStore } from '../../../src/store/sqlite/ratings.js';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dataDir: string;

function cli(args: string[], locale = 'en_US.UTF-8') {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LC_ALL: locale },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const ada = { platform: 'slack', team: 'T0123', user: 'U0456' };
const at = (minute: number) => new Date(Date.UTC(2026, 3, 1, 10, minute));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-feedback-'));
  expect(cli(['ingest', FIXTURE_PAPERS]).code).toBe(0);
  const db = openDatabase(join(dataDir, 'paperscout.db'));
  const ratings = new SqliteRatingStore(db);
  await ratings.rate(ada, 'arxiv:1706.03762', 1, at(0));
  await ratings.rate(ada, 'arxiv:gone.00001', -1, at(1)); // a paper the library no longer holds
  await ratings.follow(ada, 'Ashish Vaswani', at(2));
  await ratings.follow(ada, '何恺明', at(3));
  await ratings.rate({ ...ada, user: 'U-OTHER' }, 'arxiv:1810.04805', 1, at(4));
  db.close();
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('paperscout feedback export', () => {
  it("prints a member's ratings, newest first with the titles the library knows, and follows, as one JSON object", () => {
    const result = cli(['feedback', 'export', '--member', 'slack:T0123:U0456', '--json']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toEqual({
      member: ada,
      counts: { up: 1, down: 1 },
      ratings: [
        { id: 'arxiv:gone.00001', value: -1, at: at(1).toISOString(), title: null },
        { id: 'arxiv:1706.03762', value: 1, at: at(0).toISOString(), title: 'Attention Is All You Need' },
      ],
      follows: [
        { name: '何恺明', author: '何恺明', at: at(3).toISOString() },
        { name: 'Ashish Vaswani', author: 'ashish vaswani', at: at(2).toISOString() },
      ],
    });
    // Without --json: a line each, tab-separated.
    expect(cli(['feedback', 'export', '--member', 'slack:T0123:U0456']).out.split('\n')).toEqual([
      `-1\tarxiv:gone.00001\t${at(1).toISOString()}\t`,
      `+1\tarxiv:1706.03762\t${at(0).toISOString()}\tAttention Is All You Need`,
      `follows\t何恺明\t${at(3).toISOString()}`,
      `follows\tAshish Vaswani\t${at(2).toISOString()}`,
      '',
    ]);
  });

  it('prints an empty export for a member with none, never another member’s', () => {
    const result = cli(['feedback', 'export', '--member', 'slack:T0123:U9999', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toEqual({ member: { platform: 'slack', team: 'T0123', user: 'U9999' }, counts: { up: 0, down: 0 }, ratings: [], follows: [] });
  });

  it('answers a bad or missing --member, or another subcommand, in one line with exit code 2', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--member', 'slack:T0123'], /^"slack:T0123" is not a member: write <platform>:<team>:<user>/],
      [['--member', 'irc:T0123:U1'], /^"irc:T0123:U1" is not a member/],
      [['--member', 'slack:T0123:U1:extra'], /^"slack:T0123:U1:extra" is not a member/],
      [['--member', 'slack:  :U1'], /is not a member/],
      [['--member', `slack:T1:U1\n\u001b[2Jrm -rf /${'x'.repeat(500)}`], /^"slack:T1:U1\uFFFD\uFFFD\[2Jrm -rf \/x+…" is not a member/],
      [[], /^Name the member: paperscout feedback export --member <platform>:<team>:<user>/],
      [['--member'], /--member/],
    ];
    for (const [args, said] of cases) {
      const result = cli(['feedback', 'export', ...args, '--json']);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.out).toBe('');
      expect(result.err.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.err, args.join(' ')).toMatch(said);
    }
    const other = cli(['feedback', 'import', '--member', 'slack:T0123:U0456']);
    expect(other.code).toBe(2);
    expect(other.err).toBe('paperscout feedback takes one command: paperscout feedback export --member <platform>:<team>:<user> [--json]\n');
    const zh = cli(['feedback', 'export', '--member', 'slack:T0123'], 'zh_CN.UTF-8');
    expect(zh.err).toBe('“slack:T0123”不是成员：请写成 <平台>:<团队>:<用户>，平台为 discord、slack 或 terminal（例如 slack:T0123:U0456；不在任何服务器中时为 discord:dm:<用户 id>）。\n');
  });
});
