import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';
import { SqliteCitationStore } from '../../../src/store/sqlite/citations.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dataDir: string;

function cli(args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-cli-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('paperscout CLI', () => {
  it('ingests files and reports what went in, with file and line for bad records', () => {
    const bad = join(dataDir, 'bad.jsonl');
    writeFileSync(bad, '{"title":"A Fine Paper","authors":["Ann Lee"]}\nnot json\n{"title":"","authors":[]}\n');
    const result = cli(['ingest', FIXTURE_PAPERS, bad]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/32 records from 2 files: 30 added, 0 updated, 0 unchanged, 0 duplicates merged, 2 rejected/);
    expect(result.err).toMatch(/bad\.jsonl:2 \[index 1\]/);
    expect(result.err).toMatch(/bad\.jsonl:3 \[index 2\]: title/);
    expect(result.out).toMatch(/Library: 30 papers/);
  });

  it('ingests from the compiled build with its log checkpointed on a thread of its own, and exits', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paperscout-cli-dist-'));
    try {
      const result = spawnSync(process.execPath, [join(root, 'dist/adapters/cli/cli.js'), 'ingest', FIXTURE_PAPERS], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'debug', LOG_FORMAT: 'json' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Library: 29 papers/);
      expect(result.stdout + result.stderr).toContain('SQLite checkpoint thread started');
      expect(result.stdout + result.stderr).not.toContain('checkpoint thread failed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('re-ingesting the same files changes nothing', () => {
    const result = cli(['ingest', FIXTURE_PAPERS]);
    expect(result.out).toMatch(/29 records from 1 file: 0 added, 0 updated, 29 unchanged, 0 duplicates merged, 0 rejected/);
  });

  it('search --json gives id, title, authors, venue, year, status, score, topics, url, cited_by and openalex', () => {
    const result = cli(['search', 'attention is all you need', '--limit', '3', '--json']);
    expect(result.code).toBe(0);
    const hits = JSON.parse(result.out) as Array<Record<string, unknown>>;
    expect(hits[0]).toMatchObject({ id: 'arxiv:1706.03762', title: 'Attention Is All You Need', venue: 'NeurIPS', year: 2017, url: 'https://arxiv.org/abs/1706.03762' });
    expect(Object.keys(hits[0]!).sort()).toEqual(['authors', 'cited_by', 'id', 'openalex', 'score', 'status', 'title', 'topics', 'url', 'venue', 'year']);
    expect(hits[0]).toMatchObject({ cited_by: null, openalex: null });
  });

  it('search --stdin --json answers one JSON array a line', () => {
    const result = cli(['search', '--stdin', '--json', '--limit', '2'], 'segment anything\n\n"unclosed\nYoshua Bengio\n');
    const lines = result.out.trim().split('\n');
    expect(lines).toHaveLength(4);
    const parsed = lines.map((l) => JSON.parse(l) as Array<{ title: string }>);
    expect(parsed[0]![0]!.title).toBe('Segment Anything');
    expect(parsed[1]).toEqual([]);
    expect(parsed[3]!.length).toBe(2);
  });

  it('search --stdin skips a line over 64 kB, saying so, and keeps one answer a line', () => {
    const long = 'segment anything '.repeat(5000);
    const result = cli(['search', '--stdin', '--json', '--limit', '2'], `segment anything\n${long}\nYoshua Bengio\n`);
    const lines = result.out.trim().split('\n').map((l) => JSON.parse(l) as Array<{ title: string }>);
    expect(lines).toHaveLength(3);
    expect(lines[0]![0]!.title).toBe('Segment Anything');
    expect(lines[1]).toEqual([]);
    expect(lines[2]).toHaveLength(2);
    expect(result.err.trim()).toBe('Line 2 is longer than 64 kB and was skipped.');
    expect(result.code).toBe(0);
  });

  it('show, topics, topic and stats', () => {
    expect(cli(['show', 'https://arxiv.org/abs/1512.03385']).out).toContain('Deep Residual Learning for Image Recognition');
    expect(JSON.parse(cli(['show', 'arxiv:1512.03385', '--json']).out)).toMatchObject({ externalIds: { arxiv: '1512.03385', doi: '10.1109/cvpr.2016.90' } });
    expect(cli(['topics']).out).toMatch(/Deep Learning · Large Language Models\s+\d+/);
    expect(cli(['topic', 'llm', '--json']).code).toBe(0);
    expect(cli(['stats']).out).toMatch(/Papers: 30/);
  });

  it('search --json and show --json give the citation count and OpenAlex work once a sync has put them, and show says the count', async () => {
    const db = openDatabase(join(dataDir, 'paperscout.db'));
    try {
      const doc = (await new SqlitePaperStore(db).papersByIds(['arxiv:1706.03762'])).get('arxiv:1706.03762')!.doc;
      const written = await new SqliteCitationStore(db).put([{ doc, openalex: 'W2963403868', count: 123456, fetched: new Date('2026-03-01T00:00:00Z'), references: [] }]);
      expect(written.written).toBe(1);
    } finally {
      db.close();
    }
    const hits = JSON.parse(cli(['search', 'attention is all you need', '--limit', '1', '--json']).out) as Array<Record<string, unknown>>;
    expect(hits[0]).toMatchObject({ id: 'arxiv:1706.03762', cited_by: 123456, openalex: 'W2963403868' });
    const shown = JSON.parse(cli(['show', 'arxiv:1706.03762', '--json']).out) as Record<string, unknown>;
    expect(shown).toMatchObject({ id: 'arxiv:1706.03762', cited_by: 123456, openalex: 'W2963403868', citations: { count: 123456, openalex: 'W2963403868', fetched: '2026-03-01T00:00:00.000Z' } });
    expect(JSON.parse(cli(['show', 'arxiv:1512.03385', '--json']).out)).toMatchObject({ cited_by: null, openalex: null });
    expect(cli(['show', 'arxiv:1706.03762']).out).toContain('NeurIPS 2017 · Oral · cited by 123,456');
    expect(cli(['search', 'attention is all you need', '--limit', '1']).out).toContain('cited by 123k');
  });

  it('explains mistakes with a non-zero exit', () => {
    expect(cli(['show', 'nope'])).toMatchObject({ code: 2, err: expect.stringMatching(/No paper "nope"/) });
    expect(cli(['search', 'x', '--limit', 'lots'])).toMatchObject({ code: 2, err: expect.stringMatching(/--limit takes/) });
    expect(cli(['frobnicate'])).toMatchObject({ code: 2, err: expect.stringMatching(/There is no command "frobnicate"/) });
    expect(cli(['ingest'])).toMatchObject({ code: 2, err: expect.stringMatching(/Give files, folders or URLs to import/) });
    expect(cli(['ingest', join(dataDir, 'missing.json')])).toMatchObject({ code: 2, err: expect.stringMatching(/missing\.json: no such file or directory/) });
  });
});
