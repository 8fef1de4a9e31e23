/**
 * `paperscout related` as a user and an evaluation script run it: a child process over a
 * DATA_DIR holding the fixture papers, the text pasted as an argument or streamed one JSON
 * request a line, the answers read line by line as they come.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PAPERS } from '../../helpers/corpus.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const env = () => ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LC_ALL: 'en_US.UTF-8' });
let dataDir: string;

function cli(args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], { cwd: root, env: env(), input, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** A diffusion model's abstract, in more words than the fixture's and its title's words but one. */
const ABSTRACT =
  'We study high quality image synthesis with latent variable models trained by denoising score matching. ' +
  'Sample quality improves as these probabilistic models grow, and a weighted variational bound keeps their training stable.';

interface Hit {
  id: string;
  title: string;
  authors: string[];
  venue: string;
  year: number | null;
  url: string | null;
  score: number;
  snippet: string;
}

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-related-'));
  expect(cli(['ingest', FIXTURE_PAPERS]).code).toBe(0);
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('paperscout related', () => {
  it("prints the closest papers as search prints them, each with its abstract's closest sentence, unmarked", () => {
    const result = cli(['related', ABSTRACT, '--limit', '3']);
    expect(result.code).toBe(0);
    const titles = [...result.out.matchAll(/^\d+\. (.+)$/gm)].map((m) => m[1]);
    expect(titles).toHaveLength(3);
    expect(titles[0]).toBe('Denoising Diffusion Probabilistic Models');
    // The card: authors · venue year, then the snippet as plain text (no **marks** off a terminal).
    expect(result.out).toMatch(/^ {3}.+ · \w+ \d{4}/m);
    expect(result.out).toContain('High quality image synthesis with diffusion probabilistic models');
    expect(result.out).not.toContain('**');
  });

  it("prints --json with search --json's fields and the snippet, closest first", () => {
    const search = JSON.parse(cli(['search', 'diffusion', '--json', '--limit', '1']).out) as Array<Record<string, unknown>>;
    const result = cli(['related', ABSTRACT, '--json', '--limit', '3']);
    expect(result.code).toBe(0);
    const hits = JSON.parse(result.out) as Hit[];
    expect(hits).toHaveLength(3);
    expect(Object.keys(hits[0]!)).toEqual([...Object.keys(search[0]!), 'snippet']);
    expect(hits[0]!.title).toBe('Denoising Diffusion Probabilistic Models');
    expect(hits[0]!.snippet).toBe('High quality image synthesis with diffusion probabilistic models, a class of latent variable models trained by a weighted variational bound connected to denoising score matching.');
    expect(hits[0]!.snippet).not.toContain('**');
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
  });

  it('reads a Chinese text through the glossary, saying how on stderr', () => {
    const result = cli(['related', '扩散模型 生成 图像 噪声', '--json', '--limit', '3']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.out) as Hit[])[0]!.title).toMatch(/Diffusion/);
    expect(result.err).toMatch(/扩散模型 → diffusion model/);
  });

  it('says in one line what to give for an empty or all-punctuation text (exit 2); words it does not know find nothing (exit 1)', () => {
    for (const text of [[], ['  '], ['… — ?!', '...']]) {
      const result = cli(['related', ...text]);
      expect(result.code, JSON.stringify(text)).toBe(2);
      expect(result.out).toBe('');
      expect(result.err.trim().split('\n')).toEqual(['Give a text to find related work for, an abstract or a paragraph: paperscout related "We propose …" (or, with --stdin --json, one JSON object with a "text" a line).']);
    }
    const unknown = cli(['related', 'qwxzzyv plmokn']);
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim()).toBe('No papers found.');
    expect(cli(['related', 'qwxzzyv', '--json']).out.trim()).toBe('[]');
    expect(cli(['related', ABSTRACT, '--limit', '0']).code).toBe(2);
  });
});

describe('paperscout related --stdin --json', () => {
  it('answers one line per line, in order; a line it cannot answer gets {"error": …} and the stream goes on (exit 0)', () => {
    const lines = [
      JSON.stringify({ text: ABSTRACT, limit: 2 }),
      'not json',
      JSON.stringify({ text: 42 }),
      JSON.stringify(['text']),
      JSON.stringify({ text: ABSTRACT, limit: 0 }),
      JSON.stringify({ text: ABSTRACT, limit: 201 }),
      JSON.stringify({ text: ABSTRACT, limit: 2.5 }),
      JSON.stringify({ text: ' ?!… ' }),
      '',
      JSON.stringify({ text: 'qwxzzyv' }),
      JSON.stringify({ text: ABSTRACT, limit: null }),
      JSON.stringify({ __proto__: { text: ABSTRACT }, limit: 1 }),
      JSON.stringify({ text: 'graph attention networks', limit: 1 }),
    ];
    const result = cli(['related', '--stdin', '--json'], `${lines.join('\n')}\n`);
    expect(result.code).toBe(0);
    const out = result.out.split('\n').slice(0, -1).map((l) => JSON.parse(l) as Hit[] | { error: string });
    expect(out).toHaveLength(lines.length);
    const error = (i: number) => (out[i] as { error: string }).error;
    expect((out[0] as Hit[]).map((h) => h.title)).toHaveLength(2);
    expect((out[0] as Hit[])[0]!.title).toBe('Denoising Diffusion Probabilistic Models');
    expect(error(1)).toBe('Line 2 is not JSON: write one object a line, such as {"text": "We propose …", "limit": 10}.');
    expect(error(2)).toBe('Line 3 has no "text" string: write one object a line, such as {"text": "We propose …", "limit": 10}.');
    expect(error(3)).toMatch(/^Line 4 has no "text" string/);
    for (const i of [4, 5, 6]) expect(error(i)).toBe(`Line ${i + 1}: "limit" takes a whole number from 1 to 200, or leave it out for 10.`);
    expect(error(7)).toBe('Line 8: the text has no words to read. Give "text" an abstract or a paragraph, such as {"text": "We propose …", "limit": 10}.');
    expect(error(8)).toMatch(/^Line 9 is not JSON/);
    expect(out[9]).toEqual([]);
    expect((out[10] as Hit[]).length).toBeGreaterThan(2);
    // A "text" the object only inherits is no text of its own.
    expect(error(11)).toMatch(/^Line 12 has no "text" string/);
    expect((out[12] as Hit[])[0]!.title).toBe('Graph Attention Networks');
  });

  it('takes --limit as the default of lines without one, and reads a long text in part, saying so on stderr', () => {
    const long = `${ABSTRACT} ${'filler words about nothing in particular. '.repeat(400)}`;
    expect(long.length).toBeGreaterThan(10_000);
    const result = cli(['related', '--stdin', '--json', '--limit', '3'], `${JSON.stringify({ text: ABSTRACT })}\n${JSON.stringify({ text: long })}\n`);
    expect(result.code).toBe(0);
    const [first, second] = result.out.trim().split('\n').map((l) => JSON.parse(l) as Hit[]);
    expect(first).toHaveLength(3);
    expect(second![0]!.title).toBe(first![0]!.title);
    expect(result.err.trim()).toBe('Line 2: Only the first 10,000 characters of the query were read.');
  });

  it('writes each answer as soon as it is ready, before the next line comes', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), 'related', '--stdin', '--json'], { cwd: root, env: env() });
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // The next request is written only once the answer to the last has been read: a tool that buffered until the end would hang here.
      child.stdin.write(`${JSON.stringify({ text: ABSTRACT, limit: 1 })}\n`);
      expect((JSON.parse((await answers.next()).value as string) as Hit[])[0]!.title).toBe('Denoising Diffusion Probabilistic Models');
      child.stdin.write('{"text": \n');
      expect(JSON.parse((await answers.next()).value as string)).toEqual({ error: expect.stringMatching(/^Line 2 is not JSON/) });
      child.stdin.write(`${JSON.stringify({ text: 'graph attention networks', limit: 1 })}\n`);
      expect((JSON.parse((await answers.next()).value as string) as Hit[])[0]!.title).toBe('Graph Attention Networks');
      child.stdin.end();
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
  }, 60_000);

  it('answers a line over 1 MB with an error line in its place', () => {
    const huge = JSON.stringify({ text: 'x '.repeat(600_000) });
    const result = cli(['related', '--stdin', '--json'], `${huge}\n${JSON.stringify({ text: ABSTRACT, limit: 1 })}\n`);
    expect(result.code).toBe(0);
    const [first, second] = result.out.trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(first).toEqual({ error: 'Line 1 is longer than 1,024 kB and was skipped.' });
    expect((second as Hit[]).length).toBe(1);
  });
});
