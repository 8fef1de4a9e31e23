/**
 * `paperscout recommend` as a user runs it: a child process over a DATA_DIR holding the
 * recommendation fixture (test/fixtures/recommend), ids taken from `search --json`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PAPERS = fileURLToPath(new URL('../../fixtures/recommend/papers.jsonl', import.meta.url));
let dataDir: string;

function cli(args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LC_ALL: 'en_US.UTF-8' },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** The id `search --json` gives the paper with this exact title. */
function idOf(title: string): string {
  const hits = JSON.parse(cli(['search', title, '--json', '--limit', '1']).out) as Array<{ id: string; title: string }>;
  expect(hits[0]?.title).toBe(title);
  return hits[0]!.id;
}

let lab: string[];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-recommend-'));
  expect(cli(['ingest', PAPERS]).code).toBe(0);
  lab = ['Learning Regrasp Policies from Fingertip Contact Maps', 'Slip Detection with Vibrotactile Arrays on a Dexterous Hand'].map(idOf);
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('paperscout recommend', () => {
  it('prints search --json hits with why, and leaves out seeds it does not know, saying so', () => {
    const search = JSON.parse(cli(['search', 'Contact-Rich Reorientation', '--json', '--limit', '1']).out) as Array<Record<string, unknown>>;
    const result = cli(['recommend', '--like', `${lab.join(',')},nowhere:1`, '--where', 'year:2024', '--limit', '3', '--json']);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/Not in the library, left out: nowhere:1/);
    const hits = JSON.parse(result.out) as Array<Record<string, unknown> & { why: { seeds: Array<{ id: string; title: string }>; words: string[]; authors: string[] } }>;
    expect(hits.length).toBeGreaterThan(0);
    const first = hits[0]!;
    // The same fields as search --json, and why.
    expect(Object.keys(first).sort()).toEqual([...Object.keys(search[0]!), 'why'].sort());
    expect(first.title).toBe('Contact-Rich Reorientation with Sparse Tactile Feedback');
    expect(lab).toContain(first.why.seeds[0]!.id);
    expect(first.why.authors).toContain('Mira Okafor');
    for (const h of hits) expect(lab).not.toContain(h.id);
  });

  it('answers one JSON line per request on --stdin, in order, with an error line for a profile it cannot use', () => {
    const input = [JSON.stringify({ like: lab, where: 'year:2024', limit: 2 }), JSON.stringify({ like: ['nowhere:1'] }), JSON.stringify({ like: lab, where: 'venue:icra', limit: 1 })].join('\n');
    const result = cli(['recommend', '--stdin', '--json'], `${input}\n`);
    expect(result.code).toBe(1);
    const lines = result.out.trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines).toHaveLength(3);
    expect((lines[0] as unknown[]).length).toBe(2);
    expect(lines[1]).toEqual({ error: expect.stringMatching(/None of the papers to recommend from is in the library \(nowhere:1\)/), unknown: ['nowhere:1'] });
    expect((lines[2] as Array<{ venue: string }>).map((h) => h.venue)).toEqual(['ICRA']);
  });

  it('takes 👍 as likes, 👎 as unlike and papers shown as exclude on --stdin, and answers a bad line with an error line, going on', () => {
    const first = JSON.parse(cli(['recommend', '--stdin', '--json'], `${JSON.stringify({ like: lab, where: 'year:2024', limit: 4 })}\n`).out) as Array<{ id: string }>;
    const [liked, disliked, ...rest] = first.map((h) => h.id);
    const input = [
      '{"like": oops',
      JSON.stringify({ like: [...lab, liked], unlike: [disliked], exclude: rest, where: 'year:2024', limit: 10 }),
      JSON.stringify({ like: lab, unlike: 5, limit: 1 }),
    ].join('\n');
    const result = cli(['recommend', '--stdin', '--json'], `${input}\n`);
    expect(result.code).toBe(1);
    const lines = result.out.trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({ error: expect.stringMatching(/^Line 1 /) });
    const ids = (lines[1] as Array<{ id: string }>).map((h) => h.id);
    for (const id of [liked, disliked, ...rest, ...lab]) expect(ids).not.toContain(id);
    expect(lines[2]).toEqual({ error: expect.stringMatching(/^Line 3 /) });
  });

  it('answers a --stdin line over 64 kB with an error line in its place', () => {
    const long = JSON.stringify({ like: Array.from({ length: 5000 }, (_, i) => `arxiv:2401.${String(i).padStart(5, '0')}`) });
    const result = cli(['recommend', '--stdin', '--json'], `${long}\n${JSON.stringify({ like: lab, limit: 1 })}\n`);
    expect(result.code).toBe(1);
    const lines = result.out.trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines[0]).toEqual({ error: 'Line 1 is longer than 64 kB and was skipped.' });
    expect((lines[1] as unknown[]).length).toBe(1);
  });

  it('says in one line what to do when nothing it names is known, or the filters hold words', () => {
    const unknown = cli(['recommend', '--like', 'nowhere:1']);
    expect(unknown.code).toBe(2);
    expect(unknown.err.trim()).toBe('None of the papers to recommend from is in the library (nowhere:1). Give ids as paperscout search --json prints them.');
    const words = cli(['recommend', '--like', lab[0]!, '--where', 'tactile']);
    expect(words.code).toBe(2);
    expect(words.err).toMatch(/--where takes filters only/);
    expect(cli(['recommend']).err).toMatch(/Name the papers to recommend from/);
  });
});
