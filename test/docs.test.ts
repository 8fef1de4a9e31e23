/**
 * The documents: README.md stays a front door (under 200 lines; the rest is in docs/), and every
 * relative link in README.md and docs/ leads to a file of the repository and, with a `#`, to a
 * heading of it, as GitHub makes anchors of headings. The link reader is tried on a small page
 * written here.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Lines the README may have: what it is, pictures, the quick start, where to go next. */
const README_MAX_LINES = 200;

/** GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits, `-`, `_` kept), spaces as `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings (code blocks left out), repeats numbered as GitHub does. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative links of a Markdown text (outside code), as [target, anchor]. */
function links(markdown: string): Array<{ target: string; anchor: string | undefined }> {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const out: Array<{ target: string; anchor: string | undefined }> = [];
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)|<img [^>]*src="([^"]+)"/g)) {
    const href = m[1] ?? m[2]!;
    if (/^[a-z]+:/i.test(href)) continue;
    const [target, anchor] = href.split('#') as [string, string | undefined];
    out.push({ target, anchor });
  }
  return out;
}

/** Every broken relative link of `file` (a path from the root), as `file → link (why)`. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const broken: string[] = [];
  for (const { target, anchor } of links(text)) {
    const path = target === '' ? file : join(dirname(file), decodeURIComponent(target));
    const shown = `${file} → ${target}${anchor === undefined ? '' : `#${anchor}`}`;
    if (!existsSync(join(ROOT, path))) broken.push(`${shown} (no such file)`);
    else if (anchor !== undefined && path.endsWith('.md') && !anchors(readFileSync(join(ROOT, path), 'utf8')).has(decodeURIComponent(anchor))) broken.push(`${shown} (no such heading)`);
  }
  return broken;
}

describe('the documents', () => {
  const documents = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

  it(`keep README.md a front door of at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length - 1;
    expect(lines, 'README.md says what Paper Scout is and how to start; move the rest into docs/ (user-guide.md, operator-guide.md, …)').toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('link only to files and headings that exist', () => {
    expect(documents).toContain('docs/user-guide.md');
    expect(documents.flatMap(brokenLinks)).toEqual([]);
  });
});

describe('the link reader', () => {
  it('reads headings as GitHub anchors them, and links outside code', () => {
    const page = [
      '# Paper Scout: the operator’s guide',
      '## Reading lists: `/library`',
      '## 中文 · Chinese',
      '## Notes',
      '## Notes',
      '```sh',
      '# not a heading',
      '[not](a-link.md)',
      '```',
      'See [the guide](docs/user-guide.md#searching), [here](#notes-1), `[code](x.md)` and [a site](https://example.org).',
      '<img src="docs/images/site-results.png" alt="">',
    ].join('\n');
    expect([...anchors(page)]).toEqual(['paper-scout-the-operators-guide', 'reading-lists-library', '中文--chinese', 'notes', 'notes-1']);
    expect(links(page)).toEqual([
      { target: 'docs/user-guide.md', anchor: 'searching' },
      { target: '', anchor: 'notes-1' },
      { target: 'docs/images/site-results.png', anchor: undefined },
    ]);
  });
});
