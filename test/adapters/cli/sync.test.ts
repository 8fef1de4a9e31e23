/**
 * `paperscout sync arxiv` as a user runs it: a child process with the real clock and fetch,
 * against the loopback feed server. One category per run, so arXiv's 3-second spacing never
 * makes the test wait.
 */
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';
import { killToZombie, procState, unreapedChild } from '../../helpers/zombie.js';
import { FeedServer, fixture, rss } from '../../sources/helpers/feedServer.js';
import { Loopback, xml, type KeyOf } from '../../sources/helpers/loopback.js';
import { openreviewFixture } from '../../sources/openreview/helpers.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dataDir: string;
let server: FeedServer;
let oai: Loopback;

const env = () => ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ARXIV_CATEGORIES: 'cs.LG', ...server.env, ARXIV_OAI_URL: `${oai.base}/oai`, OPENREVIEW_API_URL: oai.base, PAPERSCOUT_CONTACT: 'lab-admin@example.org' });

/** The resumption token the harvest state holds for `--from 2024-01-01 --categories cs.LG`, read as another process would. */
function storedToken(): string | undefined {
  try {
    const db = new Database(join(dataDir, 'paperscout.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT state FROM harvests WHERE key = ?').get('arxiv-oai:cs:2024-01-01..:cs.LG') as { state: string } | undefined;
      return row ? (JSON.parse(row.state) as { token?: string }).token : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined; // not created yet
  }
}

function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], { cwd: root, env: { ...env(), ...extraEnv } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-sync-'));
  server = await new FeedServer().start();
  oai = await new Loopback().start();
});
afterAll(async () => {
  await server.stop();
  await oai.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('paperscout sync arxiv', () => {
  it('syncs the configured category, prints the summary and makes the papers searchable', async () => {
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml') });
    const result = await cli(['sync', 'arxiv']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('arXiv cs.LG, feed of 2025-04-14: 6 entries: 4 added, 0 updated, 0 unchanged, 0 skipped, 2 new versions of papers not in the library left out');
    expect(result.out).toMatch(/Library: 4 papers in /);
    expect(server.requests.map((r) => r.key)).toEqual(['/rss/cs.LG']);
    const search = await cli(['search', 'sparse mixture of experts routing', '--json', '--limit', '1']);
    expect(JSON.parse(search.out)).toMatchObject([{ id: 'arxiv:2504.09001', venue: 'arXiv', year: 2025, url: 'https://arxiv.org/abs/2504.09001' }]);
  });

  it('takes --categories, and leaves the index alone when nothing changed', async () => {
    server.serve({ '/rss/cs.CL': rss('rss-cs.CL-2025-04-14.xml') });
    const first = await cli(['sync', 'arxiv', '--categories', 'cs.CL']);
    expect(first.out).toContain('arXiv cs.CL, feed of 2025-04-14: 2 entries: 1 added, 0 updated, 1 unchanged, 0 skipped');
    const again = await cli(['sync', 'arxiv', '--categories', 'cs.CL']);
    expect(again).toMatchObject({ code: 0 });
    expect(again.out).toContain('Total: 0 added, 0 updated, 2 unchanged, 0 skipped');
    expect(again.out).not.toContain('Library:');
  });

  it('exits 1 when every category failed', async () => {
    server.serve({});
    const result = await cli(['sync', 'arxiv', '--categories', 'cs.XX']);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/arXiv cs\.XX failed: arXiv answered HTTP 404 Not Found .* \(is "cs\.XX" an arXiv category\? e\.g\. cs\.LG\)/);
    expect(result.out).toContain('1 of 1 category failed');
  });

  it('explains usage mistakes', async () => {
    server.serve({});
    expect(await cli(['sync'])).toMatchObject({ code: 2, err: expect.stringMatching(/paperscout sync knows three sources: paperscout sync arxiv .*, or paperscout sync openalex \[--refresh\]/) });
    expect(await cli(['sync', 'arxiv', '--refresh'])).toMatchObject({ code: 2, err: expect.stringMatching(/--refresh is for OpenAlex: paperscout sync openalex --refresh/) });
    expect(await cli(['sync', 'pubmed'])).toMatchObject({ code: 2, err: expect.stringMatching(/\(not "pubmed"\)/) });
    expect(await cli(['sync', 'arxiv', '--categories', 'cs.LG,not a category'])).toMatchObject({ code: 2, err: expect.stringMatching(/--categories takes arXiv categories .* \(not "not a category"\)/) });
    expect(server.requests).toHaveLength(0);
  });
});

describe('paperscout sync arxiv --from', () => {
  it('resumes at the stored token when run again at once after a kill -9, its killed predecessor not yet reaped', async () => {
    const key: KeyOf = (url) => (url.searchParams.has('resumptionToken') ? `token=${url.searchParams.get('resumptionToken')}` : `set=${url.searchParams.get('set')}&from=${url.searchParams.get('from')}`);
    oai.serve({ 'set=cs&from=2024-01-01': xml(fixture('oai-cs-page1.xml')), 'token=7004309|4': xml(fixture('oai-cs-page2.xml')) }, key);
    const args = ['sync', 'arxiv', '--from', '2024-01-01', '--categories', 'cs.LG'];
    // Under a parent that does not reap it at once, as a supervisor restarting it may not have yet.
    const command = [process.execPath, '--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args].map((a) => `'${a}'`).join(' ');
    const killed = await unreapedChild(command, env(), root);
    try {
      // Page 1 and its token are stored together; arXiv's 3 s spacing holds page 2 back: kill then.
      await vi.waitFor(() => expect(storedToken()).toBe('7004309|4'), { timeout: 15_000, interval: 25 });
      await killToZombie(killed);
      expect(oai.keys).toEqual(['set=cs&from=2024-01-01']);

      const rerun = await cli(args);
      expect(procState(killed.pid)).toBe('Z'); // still there all along, holding its lease
      expect(rerun.out).not.toContain('another process is harvesting');
      expect(rerun.code).toBe(0);
      expect(oai.keys).toEqual(['set=cs&from=2024-01-01', 'token=7004309|4']);
      expect(rerun.out).toContain('set cs, resumed at the stored resumption token: 1 page, 3 of 7 records: 2 added');
      expect(storedToken()).toBeUndefined();
    } finally {
      killed.dispose();
    }
  });

  it('harvests over OAI-PMH with the contact in the User-Agent, prints the summary and makes the papers searchable', async () => {
    oai.serve({ '/oai?verb=ListRecords&metadataPrefix=arXiv&set=stat&from=2024-01-01&until=2024-01-31': xml(fixture('oai-stat-page1.xml')) });
    const result = await cli(['sync', 'arxiv', '--from', '2024-01-01', '--until', '2024-01-31', '--categories', 'stat.ML']);
    expect(result.code).toBe(0);
    // 2401.00001 is a cs.LG cross-list: stored already if the cs harvest above ran first.
    expect(result.out).toMatch(/arXiv OAI-PMH from 2024-01-01 to 2024-01-31, categories stat\.ML\n  set stat, from 2024-01-01: 1 page, 2 records: [12] added, [01] updated, [01] unchanged, 0 skipped/);
    expect(result.out).toMatch(/Library: \d+ papers in /);
    expect(oai.requests[0]!.headers['user-agent']).toContain('mailto:lab-admin@example.org');
    const search = await cli(['search', 'calibrated posterior intervals hierarchical', '--json', '--limit', '1']);
    expect(JSON.parse(search.out)).toMatchObject([{ id: 'arxiv:2401.00007', venue: 'arXiv', year: 2024 }]);
  });

  it('explains bad dates before asking anything', async () => {
    oai.serve({});
    expect(await cli(['sync', 'arxiv', '--from', '2024-13-01'])).toMatchObject({ code: 2, err: expect.stringContaining('--from takes a day as YYYY-MM-DD, e.g. 2024-01-31 (not "2024-13-01")') });
    expect(await cli(['sync', 'arxiv', '--from', '2024-02-01', '--until', '2024-01-01'])).toMatchObject({ code: 2, err: expect.stringContaining('--until 2024-01-01 is before --from 2024-02-01') });
    expect(await cli(['sync', 'arxiv', '--until', '2024-01-01'])).toMatchObject({ code: 2, err: expect.stringContaining('--until needs --from') });
    expect(oai.requests).toHaveLength(0);
  });
});

describe('paperscout sync openreview', () => {
  it('syncs a venue, says what merged into papers held under another identifier, and search --json and stats --json show statuses', async () => {
    // The oral's arXiv preprint, imported before: the submission merges into it.
    const preprint = join(dataDir, 'preprint.jsonl');
    writeFileSync(preprint, `${JSON.stringify({ title: 'Scaling Laws for Sparse Mixture-of-Experts Language Models', authors: ['Ana Ruiz', 'Mei Lin'], arxiv: '2410.01234' })}\n`);
    expect((await cli(['ingest', preprint])).code).toBe(0);
    const notes = (offset: number) => ({ headers: { 'content-type': 'application/json' }, body: openreviewFixture(`iclr2025-offset-${offset}.json`) });
    const ask = (offset: number) => `/notes?invitation=ICLR.cc%2F2025%2FConference%2F-%2FSubmission&limit=1000&offset=${offset}`;
    // One page of 1,000 would hold them all: serve the three fixture pages as one.
    const all = [0, 3, 6].flatMap((o) => (JSON.parse(notes(o).body) as { notes: unknown[] }).notes);
    oai.serve({ [ask(0)]: { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ notes: all, count: 7 }) } });
    const result = await cli(['sync', 'openreview', '--venue', 'ICLR.cc/2025/Conference']);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'OpenReview ICLR.cc/2025/Conference: 7 of 7 submissions: 4 added, 1 updated, 0 unchanged, 2 skipped, 1 merged into a paper held under another identifier\n',
    );
    expect(result.out).toContain('Total: 4 added, 1 updated, 0 unchanged, 2 skipped, 1 merged into a paper held under another identifier, 0 kept apart\n');
    expect(oai.requests[0]!.headers['user-agent']).toContain('mailto:lab-admin@example.org');
    const search = await cli(['search', 'benchmark of benchmarks for reasoning', '--json', '--limit', '1']);
    expect(JSON.parse(search.out)).toMatchObject([{ id: 'openreview:Pz1xC4vB5n', venue: 'ICLR', year: 2025, status: 'Rejected', url: 'https://openreview.net/forum?id=Pz1xC4vB5n' }]);
    const stats = JSON.parse((await cli(['stats', '--json'])).out) as Record<string, unknown>;
    expect(stats).toMatchObject({ papers: expect.any(Number), demo: false, statuses: { Oral: 1, Spotlight: 1, Poster: 1, Rejected: 1, Withdrawn: 1 } });
    expect(stats.papers).toBe(stats.stored);
    expect(stats.harvests).toContainEqual({ key: 'openreview:ICLR.cc/2025/Conference', source: 'openreview', updatedAt: expect.any(String) });
  });

  it('reports in the terminal\'s language (LANG), the same counts', async () => {
    const notes = (offset: number) => JSON.parse(openreviewFixture(`iclr2025-offset-${offset}.json`)) as { notes: unknown[] };
    const ask = `/notes?invitation=ICLR.cc%2F2025%2FConference%2F-%2FSubmission&limit=1000&offset=0`;
    oai.serve({ [ask]: { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ notes: [0, 3, 6].flatMap((o) => notes(o).notes), count: 7 }) } });
    const result = await cli(['sync', 'openreview', '--venue', 'ICLR.cc/2025/Conference'], { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
    expect(result.code).toBe(0);
    expect(result.out).toContain('OpenReview ICLR.cc/2025/Conference：7 篇投稿中的 7 篇：新增 0；更新 0；未变 5；跳过 2\n');
    expect(result.out).toContain('被拒和撤回的投稿以该状态保存，绝不会显示为已录用');
    expect(result.out).toContain('合计：新增 0；更新 0；未变 5；跳过 2');
    expect(result.out).not.toMatch(/added|unchanged|skipped|Total/);
    server.serve({});
    const failed = await cli(['sync', 'arxiv', '--categories', 'cs.XX'], { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
    expect(failed.code).toBe(1);
    expect(failed.out).toMatch(/^arXiv cs\.XX 失败：arXiv answered HTTP 404/);
    expect(failed.out).toContain('合计：新增 0；更新 0；未变 0；跳过 0；并入以其他标识收录的论文 0；分开保存 0；1 个分类中有 1 个失败');
  });

  it('explains a venue id it cannot use', async () => {
    oai.serve({});
    expect(await cli(['sync', 'openreview', '--venue', 'ICLR 2025'])).toMatchObject({ code: 2, err: expect.stringContaining('--venue takes an OpenReview venue id such as ICLR.cc/2025/Conference (not "ICLR 2025")') });
    expect(await cli(['sync', 'openreview'])).toMatchObject({ code: 2, err: expect.stringContaining('Name the venue') });
    expect(oai.requests).toHaveLength(0);
  });
});

describe('paperscout ingest <URL>', () => {
  it('streams a remote gzip JSONL with the same summary as a file, and changes nothing the second time', async () => {
    const body = gzipSync(readFileSync(FIXTURE_PAPERS));
    oai.serve({ '/dumps/papers.jsonl.gz': { headers: { 'content-type': 'application/gzip', 'content-length': String(body.length) }, body } });
    const url = `${oai.base}/dumps/papers.jsonl.gz`;
    const first = await cli(['ingest', url]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^29 records from 1 file: 29 added, 0 updated, 0 unchanged, 0 duplicates merged, 0 rejected\n/);
    expect(oai.requests[0]!.headers['user-agent']).toContain('mailto:lab-admin@example.org');
    const again = await cli(['ingest', url]);
    expect(again.out).toMatch(/^29 records from 1 file: 0 added, 0 updated, 29 unchanged, 0 duplicates merged, 0 rejected\n/);
  });

  it('lists every rejected record past the first 20 in a details file the summary names', async () => {
    const bad = `${Array.from({ length: 25 }, (_, i) => JSON.stringify({ title: '', id: i })).join('\n')}\n${JSON.stringify({ title: 'One Good Paper' })}\n`;
    oai.serve({ '/dumps/bad.jsonl': { headers: { 'content-type': 'application/x-ndjson' }, body: Buffer.from(bad) } });
    const url = `${oai.base}/dumps/bad.jsonl`;
    const result = await cli(['ingest', url]);
    const details = join(dataDir, 'ingest-details.txt');
    expect(result.code).toBe(0);
    expect(result.err).toContain(`\n  ${url}:20 [index 19]: title: title is empty\n  … and 5 more: all 25 are listed in ${details}\n`);
    const lines = readFileSync(details, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(25);
    expect(lines[24]).toBe(`${url}:25 [index 24]: title: title is empty`);
  });
});
