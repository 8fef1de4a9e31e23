/**
 * BibTeX: one entry per paper, read the same by classic BibTeX, biber (biblatex) and the
 * importers of reference managers (Zotero's Better BibTeX, JabRef).
 *
 * - `@inproceedings` for a conference paper, `@article` for a journal article, `@misc` for an
 *   arXiv preprint and for a submission that was not accepted (with a `note`: "Withdrawn
 *   submission to ICLR 2024"). An arXiv id gives `eprint`, `archivePrefix` and, when the paper's
 *   labels name its arXiv category, `primaryClass`, as arXiv recommends for biblatex.
 * - Every value is in braces and every brace written is balanced: BibTeX counts braces even
 *   after a backslash, so the text's own `{` and `}` are written `\textbraceleft{}` and
 *   `\textbraceright{}`; the other specials are escaped (`\%`, `\&`, `\_`, `\#`, `\$`,
 *   `\textasciitilde{}`, `\textasciicircum{}`, `\textbackslash{}`, and `\textless{}`,
 *   `\textgreater{}`, `\textbar{}`, which LaTeX's default font encoding would set as ¡, ¿ and
 *   an em dash); `--`, ``` `` ``` and `''` are kept apart (`-{}-`) so they do not become a dash
 *   or quotes. Values are on one line, so nothing a title or abstract holds can close an entry
 *   or start another. Checked with Better BibTeX's parser, `bibtex` and `biber`.
 * - Latin letters with a diacritic that LaTeX has an accent command for are written as that
 *   command in BibTeX's "special character" form (`{\"o}`, `{\v{c}}`, `{\ss}`): classic
 *   BibTeX then sorts them by their base letter and abbreviates "Émile" to "{\'E}." instead of
 *   cutting a UTF-8 sequence in half, and biber and the importers decode them back. Everything
 *   else (Han and other scripts, Greek, math symbols such as √ or ℓ₁) stays UTF-8, which biber
 *   and the importers read and classic BibTeX passes through; inventing LaTeX for it (`$\surd$`)
 *   would not read back as the same text.
 * - Words whose capitals must survive a style's lowercasing of titles are braced, as Better
 *   BibTeX braces them: a capital after a word's first letter (`{BERT}`, `{ImageNet}`,
 *   `{GPT-4}`), a capitalised word in the middle of a title in sentence case (`{Adam}`), and in
 *   a title in Title Case the names (`{Gaussian}`, `{Chinese}`) known as such or written as
 *   such in the paper's abstract; the title's own braces are kept (`caseProtection.ts`).
 * - URLs and DOIs are verbatim fields for biber: only `{`, `}`, `\` and `$` are percent-encoded.
 */
import { citationKeys, describeAll, type Citable } from './entry.js';
import type { PersonName } from './names.js';
import { titlePieces, type TitlePiece } from './caseProtection.js';
import type { Paper } from '../model.js';

const ENTRY_TYPES: Readonly<Record<Citable['kind'], string>> = {
  conference: 'inproceedings',
  journal: 'article',
  preprint: 'misc',
  unpublished: 'misc',
  other: 'misc',
};

const SPECIALS: ReadonlyMap<string, string> = new Map(Object.entries({
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '#': '\\#',
  $: '\\$',
  '%': '\\%',
  '&': '\\&',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  // LaTeX's default font encoding sets these as ¡, ¿ and an em dash.
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
}));
/** Accents written as a symbol command: `{\"o}`. */
const SYMBOL_ACCENTS: ReadonlyMap<string, string> = new Map(Object.entries({
  '\u0300': '`', '\u0301': "'", '\u0302': '^', '\u0303': '~', '\u0304': '=', '\u0307': '.', '\u0308': '"',
}));
/** Accents written as a letter command with an argument: `{\v{c}}`. */
const LETTER_ACCENTS: ReadonlyMap<string, string> = new Map(Object.entries({
  '\u0306': 'u', '\u030a': 'r', '\u030b': 'H', '\u030c': 'v', '\u0323': 'd', '\u0327': 'c', '\u0328': 'k',
}));
/** Letters LaTeX has a command for. */
const LETTERS: ReadonlyMap<string, string> = new Map(Object.entries({
  'ß': '{\\ss}', 'æ': '{\\ae}', 'Æ': '{\\AE}', 'œ': '{\\oe}', 'Œ': '{\\OE}', 'ø': '{\\o}', 'Ø': '{\\O}',
  'ł': '{\\l}', 'Ł': '{\\L}', 'ı': '{\\i}', 'å': '{\\aa}', 'Å': '{\\AA}',
}));
/**
 * What needs writing otherwise: a special, a non-ASCII character, or a run LaTeX would set as
 * one glyph (`--` an en dash, ``` `` ``` and `''` quotes, `` !` `` ¡), whose characters are
 * kept apart with `{}` since the text meant them as they are.
 */
const NEEDS_WRITING = /[\\{}#$%&_~^<>|]|-{2,}|'{2,}|,{2,}|[!?]?`+|[^\x00-\x7f]/gu;

/**
 * Text as the content of a braced BibTeX value: specials escaped, accented Latin letters as
 * accent commands, anything else as it is.
 * @example bibtexText('Gröbner bases & 50% of $x_1$') // 'Gr{\\"o}bner bases \\& 50\\% of \\$x\\_1\\$'
 */
export function bibtexText(text: string): string {
  return text.replace(NEEDS_WRITING, (match) => {
    if (match.length > 1 && match.charCodeAt(0) < 0x80) return match.split('').join('{}');
    return SPECIALS.get(match) ?? (match.charCodeAt(0) < 0x80 ? match : latexLetter(match));
  });
}

/** Non-ASCII characters already written, so that each is decomposed once (bounded). */
const written = new Map<string, string>();

function latexLetter(ch: string): string {
  let out = written.get(ch);
  if (out === undefined) {
    out = toLatexLetter(ch);
    if (written.size < 10_000) written.set(ch, out);
  }
  return out;
}

function toLatexLetter(ch: string): string {
  const letter = LETTERS.get(ch);
  if (letter) return letter;
  const parts = ch.normalize('NFD');
  if (parts.length !== 2 || !/^[A-Za-z]$/.test(parts[0]!)) return ch;
  const symbol = SYMBOL_ACCENTS.get(parts[1]!);
  if (symbol) return `{\\${symbol}${parts[0]}}`;
  const command = LETTER_ACCENTS.get(parts[1]!);
  return command ? `{\\${command}{${parts[0]}}}` : ch;
}

/**
 * A title as a BibTeX value: escaped, with the words whose capitals must survive a style's
 * lowercasing in braces, the title's own brace groups kept, and nothing braced twice (the
 * rules are in `caseProtection.ts`). A protected piece that would start with a command is
 * braced twice, as BibTeX reads `{\…}` as one accented letter whose case it changes.
 * @example bibtexTitle('BERT: Pre-training on ImageNet') // '{BERT}: Pre-training on {ImageNet}'
 * @example bibtexTitle('On the convergence of Adam and beyond') // 'On the convergence of {Adam} and beyond'
 * @example bibtexTitle('Sparse Gaussian Processes', 'We fit a Gaussian process.') // 'Sparse {Gaussian} Processes'
 */
export function bibtexTitle(title: string, abstract = ''): string {
  return writePieces(titlePieces(title, abstract));
}

function writePieces(pieces: readonly TitlePiece[]): string {
  let out = '';
  for (const piece of pieces) {
    if (piece.kind === 'group') out += `{${writePieces(piece.pieces)}}`;
    else if (piece.kind === 'text') out += bibtexText(piece.text);
    else {
      const text = bibtexText(piece.text);
      out += text.startsWith('\\') ? `{{${text}}}` : `{${text}}`;
    }
  }
  return out;
}

/**
 * A name as BibTeX reads it: "Family, Given", with the particle before the family name and a
 * suffix after it ("van Rossum, Guido", "King, Jr., Martin Luther"); a literal in braces, so
 * that BibTeX neither splits it nor reads an "and" in it.
 * @example bibtexName({ family: 'Müller', given: 'Anna' }) // 'M{\\"u}ller, Anna'
 * @example bibtexName({ literal: 'Google DeepMind' }) // '{Google DeepMind}'
 */
export function bibtexName(name: PersonName): string {
  if ('literal' in name) return `{${bibtexText(name.literal)}}`;
  const family = bibtexText(name.particle ? `${name.particle} ${name.family}` : name.family);
  const given = bibtexText(name.given);
  return name.suffix ? `${family}, ${bibtexText(name.suffix)}, ${given}` : `${family}, ${given}`;
}

/**
 * A URL or DOI as a verbatim value: only what would unbalance the braces is percent-encoded,
 * and `$`, which some readers (Better BibTeX's parser) take for math even in a URL.
 */
function verbatim(text: string): string {
  return text.replace(/[{}\\$]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * One BibTeX entry for a described paper under a given key.
 * @example bibtexEntry(describePaper(paper), 'vaswani2017attention') // '@inproceedings{vaswani2017attention,\n  title = {…},\n…}'
 */
export function bibtexEntry(citable: Citable, key: string): string {
  const fields: Array<[string, string | undefined]> = [
    ['title', bibtexTitle(citable.title, citable.abstract)],
    ['author', citable.authors.length > 0 ? citable.authors.map(bibtexName).join(' and ') : undefined],
    [citable.kind === 'journal' ? 'journal' : 'booktitle', citable.container && bibtexText(citable.container.name)],
    ['year', citable.date && String(citable.date.year)],
    ['note', citable.statusNote && bibtexText(citable.statusNote)],
    ['eprint', citable.arxiv?.id],
    ['archivePrefix', citable.arxiv && 'arXiv'],
    ['primaryClass', citable.arxiv?.primaryClass],
    ['doi', citable.doi && verbatim(citable.doi)],
    ['url', citable.url && verbatim(citable.url)],
    ['abstract', citable.abstract ? bibtexText(citable.abstract) : undefined],
    ['keywords', citable.keywords.length > 0 ? bibtexText(citable.keywords.join(', ')) : undefined],
  ];
  const lines = fields.filter(([, value]) => value !== undefined && value !== '').map(([name, value]) => `  ${name} = {${value}}`);
  return `@${ENTRY_TYPES[citable.kind]}{${key},\n${lines.join(',\n')}\n}\n`;
}

/**
 * A BibTeX file of the papers: one entry each (a paper listed twice is written once), keys
 * unique within the file, entries in the order given and separated by a blank line.
 * @example
 * toBibtex([attention])
 * // '@inproceedings{vaswani2017attention,\n  title = {Attention Is All You Need},\n  author = {Vaswani, Ashish and …},\n  booktitle = {Advances in Neural Information Processing Systems},\n  year = {2017},\n…\n}\n'
 */
export function toBibtex(papers: readonly Paper[]): string {
  const citables = describeAll(papers);
  const keys = citationKeys(citables);
  return citables.map((citable, i) => bibtexEntry(citable, keys[i]!)).join('\n');
}
