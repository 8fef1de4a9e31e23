/**
 * RIS, the tagged format EndNote, Mendeley and Zotero import. As the RIS specification says:
 * each line is a tag (an uppercase letter, an uppercase letter or digit), two spaces, a hyphen
 * and a space, then the value; lines end in CR LF; a record opens with `TY` and closes with
 * `ER`, with no blank line between records. Authors are one `AU` line each, in order,
 * "Family, Given"; keywords one `KW` line each. Text is UTF-8.
 *
 * A value never holds a line break (see `cleanText` in `entry.ts`), so no text can start a
 * tag of its own; the asterisk, which the specification forbids in author, keyword and
 * periodical name fields, is left out of those. Types: `CONF` for a conference paper,
 * `JOUR` for a journal article, `UNPB` (unpublished work) for a preprint or a submission
 * that was not accepted, `GEN` for anything else.
 */
import { describeAll, type Citable } from './entry.js';
import { invertedName } from './names.js';
import type { Paper } from '../model.js';

const TYPES: Readonly<Record<Citable['kind'], string>> = {
  conference: 'CONF',
  journal: 'JOUR',
  preprint: 'UNPB',
  unpublished: 'UNPB',
  other: 'GEN',
};
/** The specification's line end. */
export const RIS_EOL = '\r\n';

function line(tag: string, value: string): string {
  return `${tag}  - ${value}${RIS_EOL}`;
}

/** Fields where the specification does not allow an asterisk. */
function noAsterisk(text: string): string {
  return text.includes('*') ? text.replace(/\s*\*+\s*/g, ' ').trim() : text;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * One RIS record for a described paper.
 * @example risRecord(describePaper(paper)) // 'TY  - CONF\r\nAU  - Vaswani, Ashish\r\n…ER  - \r\n'
 */
export function risRecord(citable: Citable): string {
  let out = line('TY', TYPES[citable.kind]);
  for (const author of citable.authors) {
    const name = noAsterisk(invertedName(author));
    if (name) out += line('AU', name);
  }
  if (citable.title) out += line('TI', citable.title);
  if (citable.container) {
    out += line('T2', noAsterisk(citable.container.name));
    if (citable.container.short !== citable.container.name) out += line('J2', noAsterisk(citable.container.short));
  }
  const date = citable.date;
  if (date) {
    out += line('PY', String(date.year));
    if (date.month && date.day) out += line('DA', `${date.year}/${pad(date.month)}/${pad(date.day)}`);
  }
  if (citable.doi) out += line('DO', citable.doi);
  if (citable.url) out += line('UR', citable.url);
  if (citable.arxiv) {
    out += line('DB', 'arXiv');
    out += line('AN', `arXiv:${citable.arxiv.id}`);
  }
  if (citable.statusNote) out += line('N1', citable.statusNote);
  if (citable.abstract) out += line('AB', citable.abstract);
  for (const keyword of citable.keywords) {
    const kw = noAsterisk(keyword);
    if (kw) out += line('KW', kw);
  }
  return out + line('ER', '');
}

/**
 * An RIS file of the papers: one record each (a paper listed twice is written once), in the
 * order given, with CR LF line ends.
 * @example
 * toRis([attention])
 * // 'TY  - CONF\r\nAU  - Vaswani, Ashish\r\n…TI  - Attention Is All You Need\r\nT2  - Advances in Neural Information Processing Systems\r\n…ER  - \r\n'
 */
export function toRis(papers: readonly Paper[]): string {
  return describeAll(papers).map(risRecord).join('');
}
