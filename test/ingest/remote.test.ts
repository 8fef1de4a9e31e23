/**
 * `paperscout ingest <https URL>` and gzip: files served by a loopback server (plain, gzip by
 * content, gzip by transfer encoding), and gzip files on disk, through the same pipeline as
 * files, with the same progress, summaries and idempotence.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ingestPaths, type IngestDeps, type IngestProgress, type IngestSummary } from '../../src/ingest/ingest.js';
import { Loopback } from '../sources/helpers/loopback.js';
import { FIXTURES, NOW, openTestStore, type TestStore } from './helpers/testStore.js';

let t: TestStore;
let server: Loopback;
beforeAll(async () => {
  server = await new Loopback().start();
});
afterAll(() => server.stop());
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.cleanup());

const classify = () => [];
const ingest = (paths: string[], deps: Partial<IngestDeps> = {}): Promise<IngestSummary> => ingestPaths(paths, { store: t.store, classify, now: NOW, ...deps });
const counts = ({ files, added, updated, unchanged, rejected }: IngestSummary) => ({ files, added, updated, unchanged, rejected });
const fixture = (path: string) => readFileSync(join(FIXTURES, path));
const rows = () => t.db.prepare('SELECT id, title, venue, year, source FROM papers ORDER BY id').all();

describe('ingest from a URL', () => {
  it('imports a paperlists file by its name, like the same file on disk, and again changes nothing', async () => {
    server.serve({ '/lists/icml2019.json': { headers: { 'content-type': 'application/json' }, body: fixture('paperlists/icml/icml2019.json') } });
    const url = `${server.base}/lists/icml2019.json`;
    const remote = await ingest([url], { userAgent: 'PaperScout/0.1 (test; mailto:lab-admin@example.org)' });
    expect(remote.failedFiles).toEqual([]);
    expect(server.requests[0]!.headers['user-agent']).toBe('PaperScout/0.1 (test; mailto:lab-admin@example.org)');
    const fromUrl = rows();

    const local = openTestStore();
    try {
      await ingestPaths([join(FIXTURES, 'paperlists/icml/icml2019.json')], { store: local.store, classify, now: NOW });
      expect(fromUrl).toEqual(local.db.prepare('SELECT id, title, venue, year, source FROM papers ORDER BY id').all());
    } finally {
      local.cleanup();
    }
    expect(fromUrl).toContainEqual(expect.objectContaining({ venue: 'ICML', year: 2019, source: 'paperlists:icml2019' }));
    const again = await ingest([url]);
    expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: remote.added });
  });

  it('decompresses a gzip file (by its bytes) and a gzip transfer, with progress against Content-Length', async () => {
    const jsonl = fixture('generic/papers.jsonl');
    const gz = gzipSync(jsonl);
    server.serve({
      '/dump/papers.jsonl.gz': { headers: { 'content-type': 'application/gzip', 'content-length': String(gz.length) }, body: gz },
      '/dump/papers.csv': { headers: { 'content-type': 'text/csv', 'content-encoding': 'gzip' }, body: gzipSync(fixture('generic/papers.csv')) },
    });
    const progress: IngestProgress[] = [];
    const summary = await ingest([`${server.base}/dump/papers.jsonl.gz`], { onProgress: (p) => progress.push(p) });
    expect(summary.failedFiles).toEqual([]);
    expect(summary.added).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual({ file: `${server.base}/dump/papers.jsonl.gz`, bytesDone: gz.length, bytesTotal: gz.length, records: summary.added + summary.rejected });
    expect(rows()).toContainEqual(expect.objectContaining({ source: 'file:papers' }));
    const csv = await ingest([`${server.base}/dump/papers.csv`]);
    expect(csv.failedFiles).toEqual([]);
    expect(csv.added + csv.updated + csv.unchanged).toBeGreaterThan(0);
  });

  it('reports a URL that does not serve a file, and a corrupt gzip, and goes on with the rest', async () => {
    const gz = gzipSync(fixture('generic/papers.jsonl'));
    server.serve({
      '/broken.jsonl.gz': { headers: { 'content-type': 'application/gzip' }, body: Buffer.concat([gz.subarray(0, 40), Buffer.from('garbage that is not deflate at all')]) },
      '/good.jsonl': { body: fixture('generic/papers.jsonl') },
    });
    const summary = await ingest([`${server.base}/missing.json`, `${server.base}/broken.jsonl.gz`, `${server.base}/good.jsonl`]);
    expect(summary.failedFiles).toEqual([
      { file: `${server.base}/missing.json`, reason: 'HTTP 404 Not Found: check the URL (it must serve the file itself, not a page about it)' },
      { file: `${server.base}/broken.jsonl.gz`, reason: expect.stringMatching(/broken\.jsonl\.gz is not valid gzip/) },
    ]);
    expect(summary.files).toBe(3);
    expect(summary.added).toBeGreaterThan(0);
  });
});

describe('gzip files on disk', () => {
  it('reads a .jsonl.gz named or found in a folder, as its uncompressed twin', async () => {
    const path = t.file('dump/papers.jsonl.gz', '');
    writeFileSync(path, gzipSync(fixture('generic/papers.jsonl')));
    const summary = await ingest([join(t.dir, 'in/dump')]);
    expect(summary).toMatchObject({ files: 1, failedFiles: [] });
    const plain = openTestStore();
    try {
      const twin = await ingestPaths([join(FIXTURES, 'generic/papers.jsonl')], { store: plain.store, classify, now: NOW });
      expect(counts(summary)).toEqual(counts(twin));
    } finally {
      plain.cleanup();
    }
  });
});
