/**
 * Libraries of papers made to break chat messages, for the adapters' tests: a corpus generated
 * from pieces that break naive Slack and Discord markup (mentions, entities, control and
 * direction characters, huge fields, broken links), and a dozen papers built to break every
 * Discord limit at once (1000-character titles of markdown and mentions, 400 authors,
 * 100 kB abstracts, URLs too long or full of parentheses).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';

/** Pieces that break naive Slack messages, mixed with ordinary text. */
const HOSTILE_UNITS = [
  '<!channel>', '<!here>', '<@U0ALICE>', '<#C0GENERAL>', '<https://evil.example|click>', '&amp;', '&lt;', '&', '<', '>', '> ',
  '*', '_', '~', '`', '```', '|', ':rage:', '@everyone', '\n', '\t', '\u0000', '\u001b[2J', '\u202e', '\u2028', '\u200b',
  '😀', 'é', '中文', ' ', ' ', 'hostile', 'paper', 'a', 'b', 'z',
];
const hostileText = (maxLength: number) => fc.string({ unit: fc.constantFrom(...HOSTILE_UNITS), minLength: Math.floor(maxLength / 4), maxLength, size: 'max' });
/** Links of paper `n` (a paper's own links identify it, so each paper has its own). */
const HOSTILE_URLS = [
  (n: number) => `https://example.com/${n}/a?x=1&y=<2>|3`,
  () => 'javascript:alert(1)',
  (n: number) => `https://example.com/${n}/${'long/'.repeat(400)}`,
  (n: number) => `https://example.com/${n}/paper_~\`*.pdf`,
  (n: number) => `https://ok.example/${n}/paper.pdf`,
];
const hostileUrl = fc.integer({ min: 0, max: HOSTILE_URLS.length - 1 });
const hostileRecord = fc.record({
  title: hostileText(60).map((t) => `hostile ${t} ${'Z'.repeat(10)}`),
  authors: fc.array(hostileText(40), { maxLength: 300, size: 'max' }),
  abstract: hostileText(3000).map((t) => `hostile paper ${t}`),
  venue: hostileText(300),
  year: fc.integer({ min: 1990, max: 2026 }),
  status: hostileText(200),
  keywords: fc.array(hostileText(20), { maxLength: 20, size: 'max' }),
  url: hostileUrl,
  pdf: hostileUrl,
  code: hostileUrl,
});

/** 40 generated hostile papers, found by "hostile paper", each as long as the store takes. */
export function generatedHostilePapers(): Array<Record<string, unknown> & { url: string }> {
  return fc
    .sample(hostileRecord, { seed: 20260101, numRuns: 40 })
    .map((r, i) => ({
      ...r,
      // As long as the store takes (title 1000, venue 200, status 100, an author 300 characters).
      title: `${r.title.slice(0, 200)} ${'x'.repeat(i % 3 === 0 ? 700 : 1)} n${i}`,
      authors: r.authors.map((a) => a.slice(0, 300)).filter((a) => a.trim() !== ''),
      venue: r.venue.slice(0, 200),
      status: r.status.slice(0, 100),
      url: HOSTILE_URLS[r.url]!(i),
      pdf: HOSTILE_URLS[r.pdf]!(i),
      code: HOSTILE_URLS[r.code]!(i),
    }));
}

const NASTY = '@everyone **zebra** `x` <@123> ||s|| [l](http://e.x) # _u_ ~~s~~ > q <#9> @here ';

/** 12 papers found by "zebra", each breaking every Discord limit. */
export function zebraPapers(): Array<Record<string, unknown>> {
  return Array.from({ length: 12 }, (_, i) => ({
    title: `zebra ${i} ${NASTY.repeat(20)}`.slice(0, 1000),
    authors: Array.from({ length: 400 }, (_, j) => `@here Author_${i}_${j} ${'*'.repeat(40)} <@${j}>`),
    abstract: `zebra ${NASTY}\n# heading\n1. list\n> quote\n`.repeat(1200).slice(0, 100_000),
    venue: `@everyone ${'*_'.repeat(90)}`.slice(0, 200),
    year: 2024,
    status: '<@&1> '.repeat(16).slice(0, 100),
    keywords: ['zebra'],
    url: `https://e.x/p/${i}?q=(a)&r=**b**`,
    pdf: `https://e.x/${i}/${'(a)'.repeat(600)}`,
    code: `https://e.x/code_(${i})`,
  }));
}

/** Papers written to a JSONL file in a directory of its own; `remove` deletes it. */
export function writePapers(papers: readonly unknown[]): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-hostile-'));
  const file = join(dir, 'hostile.jsonl');
  writeFileSync(file, papers.map((p) => JSON.stringify(p)).join('\n'));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
