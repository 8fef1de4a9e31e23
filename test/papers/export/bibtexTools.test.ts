/**
 * The BibTeX export read by the programs LaTeX users run: classic `bibtex` (with the standard
 * `plain` and `abbrv` styles) and `biber` (in tool mode, which reads and rewrites a .bib the
 * way biblatex documents have it read). Debian's `texlive-binaries`, `texlive-base` and
 * `biber` packages provide them (.ci/run installs them); without them these tests are skipped,
 * and say so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { toBibtex } from '../../../src/papers/export/bibtex.js';
import { citationKeys, describeAll } from '../../../src/papers/export/entry.js';
import { skipping } from '../../helpers/skip.js';
import { hostilePapers } from './hostile.js';
import { REALISTIC, rawPaper } from './papers.js';

const runs = (command: string, args: string[]): boolean => spawnSync(command, args, { encoding: 'utf8' }).status === 0;
/** What these tests need, each with the Debian package that brings it. */
const NEEDED = [
  { what: 'bibtex', found: () => runs('bibtex', ['--version']), from: 'texlive-binaries' },
  { what: 'the standard styles (plain.bst, abbrv.bst)', found: () => runs('kpsewhich', ['-must-exist', 'plain.bst']) && runs('kpsewhich', ['-must-exist', 'abbrv.bst']), from: 'texlive-base' },
  { what: 'biber', found: () => runs('biber', ['--version']), from: 'biber' },
];
const absent = NEEDED.filter((need) => !need.found());
const missing = skipping(
  'BibTeX tool tests',
  absent.length === 0 ? undefined : `${absent.map((need) => need.what).join(', ')} not installed (apt-get install ${absent.map((need) => need.from).join(' ')})`,
  { required: true },
);

const dir = mkdtempSync(join(tmpdir(), 'paperscout-bibtex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs classic BibTeX over a .bib with every entry cited; gives the .bbl and the log. */
function bibtex(name: string, bib: string, style: string): { bbl: string; log: string; status: number | null } {
  writeFileSync(join(dir, `${name}.bib`), bib);
  writeFileSync(join(dir, `${name}.aux`), `\\citation{*}\n\\bibdata{${name}}\n\\bibstyle{${style}}\n`);
  const run = spawnSync('bibtex', ['-terse', name], { cwd: dir, encoding: 'utf8' });
  return { bbl: readFileSync(join(dir, `${name}.bbl`), 'utf8'), log: readFileSync(join(dir, `${name}.blg`), 'utf8'), status: run.status };
}

/** Runs biber in tool mode; gives what it wrote back and its log. */
function biber(name: string, bib: string): { out: string; log: string; status: number | null } {
  writeFileSync(join(dir, `${name}.bib`), bib);
  const run = spawnSync('biber', ['--tool', '--quiet', `--output-file=${name}.out.bib`, `${name}.bib`], { cwd: dir, encoding: 'utf8' });
  let out = '';
  try {
    out = readFileSync(join(dir, `${name}.out.bib`), 'utf8');
  } catch {
    // no output: the log says why
  }
  return { out, log: `${run.stdout}${run.stderr}`, status: run.status };
}

/** Exit codes: 0, or 1 for warnings (an empty title); 2 and up are errors. */
const READ = /^[01]$/;

describe.skipIf(missing)('the BibTeX export in bibtex and biber', { timeout: 60_000 }, () => {
  it('is read by bibtex, which sorts and abbreviates accented names by their letters', () => {
    const emile = rawPaper({ id: 'borel', title: 'Le{\u00e7}ons', authors: ['Émile Borel'], year: 1898, venue: 'Nature', externalIds: { doi: '10.1000/x' } });
    const papers = [...REALISTIC, emile];
    const plain = bibtex('plain', toBibtex(papers), 'plain');
    expect(plain.status, plain.log).toBe(0);
    const keys = [...plain.bbl.matchAll(/\\bibitem\{(.*?)\}/g)].map((m) => m[1]);
    expect(keys).toHaveLength(papers.length);
    // plain sorts by author: Schölkopf among the S, not after Z.
    expect(keys.indexOf('scholkopf2019kernel')).toBeLessThan(keys.indexOf('vaswani2017attention'));
    expect(keys.indexOf('scholkopf2019kernel')).toBeGreaterThan(keys.indexOf('ruiz2024sparse'));
    const abbrv = bibtex('abbrv', toBibtex(papers), 'abbrv');
    expect(abbrv.bbl).toContain("{\\'E}.~Borel");
    expect(abbrv.bbl).toContain('{\\L}.~Kaiser');
  });

  it('keeps the protected capitals when a style lowercases titles', () => {
    const papers = [
      rawPaper({ id: 'a', title: 'Scalable Variational Gaussian Process Classification', authors: ['Ana Ruiz'], year: 2015 }),
      rawPaper({ id: 'b', title: 'BERT-Based Ranking with GPT-4 on the iPhone', authors: ['Ana Ruiz'], year: 2024 }),
      rawPaper({ id: 'c', title: 'Marked Hawkes Processes: A Study', abstract: 'We fit a marked Hawkes process.', authors: ['Ana Ruiz'], year: 2020 }),
      rawPaper({ id: 'd', title: 'Bandit Optimization: Only $\\sqrtT$ Regret for {PF}²ES', authors: ['Ana Ruiz'], year: 2021 }),
    ];
    // plain sets a title with `"t" change.case$`: all but the first letter (and one after a colon) lowercased outside braces.
    const { bbl, log, status } = bibtex('cased', toBibtex(papers), 'plain');
    expect(status, log).toBe(0);
    const text = bbl.replace(/\s+/g, ' ');
    expect(text).toContain('Scalable variational {Gaussian} process classification,');
    expect(text).toContain('{BERT-Based} ranking with {GPT-4} on the {iPhone},');
    expect(text).toContain('Marked {Hawkes} processes: A study,');
    expect(text).toContain('Bandit optimization: Only {{\\$\\textbackslash{}sqrtT\\$}} regret for {PF}{²ES},');
  });

  it('is read by biber, every entry written back', () => {
    const { out, log, status } = biber('realistic', toBibtex(REALISTIC));
    expect(status, log).toBe(0);
    expect(log).not.toMatch(/ERROR|WARN/);
    expect([...out.matchAll(/^@\w+\{(.*),$/gm)].map((m) => m[1])).toEqual(citationKeys(describeAll(REALISTIC)));
  });

  it('reads hostile text as one entry per paper in both', () => {
    const papers = fc.sample(hostilePapers, { numRuns: 150, seed: 30 }).flat().map((paper, i) => ({ ...paper, id: `h${i}` }));
    const bib = toBibtex(papers);
    const keys = citationKeys(describeAll(papers));
    const classic = bibtex('hostile', bib, 'plain');
    expect(String(classic.status), classic.log).toMatch(READ);
    expect(classic.log).not.toMatch(/I was expecting|I'm skipping|error message/);
    expect([...classic.bbl.matchAll(/\\bibitem\{(.*?)\}/g)].map((m) => m[1]).sort()).toEqual([...keys].sort());
    const modern = biber('hostile', bib);
    expect(modern.status, modern.log).toBe(0);
    expect(modern.log).not.toMatch(/ERROR/);
    expect([...modern.out.matchAll(/^@\w+\{(.*),$/gm)].map((m) => m[1])).toEqual(keys);
  });
});
