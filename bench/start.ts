/**
 * `npm start`'s first answer in the terminal, as a user gets it: `printf '/paper …\n' | npm start`
 * from spawning npm to the first result on stdout (npm included), and the same for the bot
 * process alone (`node dist/adapters/main.js`). Medians of several runs, on the library in
 * `dataDir` and on a fresh clone's demo corpus.
 *
 *   tsx bench/start.ts [--data-dir DIR] [--runs 5]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { fmtMs, median } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const START_QUERY = '/paper diffusion transformers';
/** What the terminal prints first for a result list. */
const FIRST_ANSWER = /Papers for/;

/** Milliseconds from spawning `command` to the first answer on its stdout. */
function firstAnswer(command: string, args: string[], dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let ms: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (ms === undefined && FIRST_ANSWER.test(out)) {
        ms = performance.now() - started;
        child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => (ms === undefined ? reject(new Error(`${command} ${args.join(' ')} exited ${code} without an answer:\n${out}`)) : resolve(ms)));
    child.stdin.write(`${START_QUERY}\n`);
  });
}

export interface StartFigures {
  npm: number[];
  node: number[];
}

/** Runs both measurements `runs` times each, alternating. */
export async function measureStart(dataDir: string, runs = 5): Promise<StartFigures> {
  const figures: StartFigures = { npm: [], node: [] };
  for (let i = 0; i < runs; i++) {
    figures.npm.push(await firstAnswer('npm', ['start'], dataDir));
    figures.node.push(await firstAnswer(process.execPath, [join(root, 'dist/adapters/main.js')], dataDir));
  }
  return figures;
}

/** Report lines: on the library in `dataDir`, and on an empty DATA_DIR (the demo corpus). */
export async function benchStart(dataDir: string, runs = 5): Promise<string[]> {
  const demoDir = mkdtempSync(join(tmpdir(), 'paperscout-bench-demo-'));
  try {
    const library = await measureStart(dataDir, runs);
    const demo = await measureStart(demoDir, runs);
    const fmt = (ms: number[]) => `${fmtMs(median(ms))} median (${ms.map((m) => Math.round(m)).join(', ')})`;
    return [
      `npm start, first answer to \`printf '${START_QUERY}\\n' | …\`  (goal: ≤ 1.5 s with npm, ≤ 1.0 s for the process)`,
      `  library, whole npm start    ${fmt(library.npm)}`,
      `  library, process alone      ${fmt(library.node)}`,
      `  demo corpus, npm start      ${fmt(demo.npm)}`,
      `  demo corpus, process alone  ${fmt(demo.node)}`,
    ];
  } finally {
    rmSync(demoDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, runs: { type: 'string', default: '5' } } });
  const dir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'paperscout-bench-start-'));
  for (const line of await benchStart(dir, Math.max(1, Number(values.runs) || 5))) process.stdout.write(`${line}\n`);
  if (!values['data-dir']) rmSync(dir, { recursive: true, force: true });
}
