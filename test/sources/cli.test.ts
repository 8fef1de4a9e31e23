/**
 * `paperscout sync arxiv` as a user runs it: a child process with the real clock and fetch,
 * against the loopback feed server. One category per run, so arXiv's 3-second spacing never
 * makes the test wait.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedServer, rss } from './helpers/feedServer.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let dataDir: string;
let server: FeedServer;

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ARXIV_CATEGORIES: 'cs.LG', ...server.env },
    });
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
});
afterAll(async () => {
  await server.stop();
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
    expect(await cli(['sync'])).toMatchObject({ code: 1, err: expect.stringMatching(/paperscout sync knows one source, arxiv/) });
    expect(await cli(['sync', 'pubmed'])).toMatchObject({ code: 1, err: expect.stringMatching(/\(not "pubmed"\)/) });
    expect(await cli(['sync', 'arxiv', '--categories', 'cs.LG,not a category'])).toMatchObject({ code: 1, err: expect.stringMatching(/--categories takes arXiv categories .* \(not "not a category"\)/) });
    expect(server.requests).toHaveLength(0);
  });
});
