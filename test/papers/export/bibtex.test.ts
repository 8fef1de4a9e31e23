/**
 * The BibTeX export, read back with @retorquere/bibtex-parser (the parser of Zotero's Better
 * BibTeX): realistic papers come back with their titles, names and identifiers; hostile text
 * never breaks an entry, adds a field or starts another entry.
 */
import { parse, type Creator } from '@retorquere/bibtex-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bibtexText, bibtexTitle, toBibtex } from '../../../src/papers/export/bibtex.js';
import { citationKeys, cleanText, describeAll, type Citable } from '../../../src/papers/export/entry.js';
import type { PersonName } from '../../../src/papers/export/names.js';
import {
  REALISTIC, arxivPreprint, chineseAuthors, conferenceOral, diacritics, journalArticle, mathTitle, rawPaper,
  tmlrArticle, withdrawnSubmission,
} from './papers.js';
import { hostilePapers } from './hostile.js';

/**
 * Parses as Zotero would, without sentence-casing, so that text compares as written. The
 * parser gives decoded accents decomposed (NFD); the export writes composed text (NFC), so
 * strings are compared composed.
 */
function read(bib: string) {
  const library = parse(bib, { english: false });
  expect(library.errors).toEqual([]);
  return library.entries.map((entry) => ({ ...entry, fields: composed(entry.fields) }));
}

/** Text without braces, spaces as readers trim them: a brace group is read as its content. */
function withoutBraces(text: string): string {
  return text.replace(/[{}]/g, '').replace(/ {2,}/g, ' ').trim();
}

function composed<T>(value: T): T {
  if (typeof value === 'string') return value.normalize('NFC') as T;
  if (Array.isArray(value)) return value.map(composed) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, composed(v)])) as T;
  }
  return value;
}

/** A name as the parser gives it back. */
function asCreator(name: PersonName): Creator {
  if ('literal' in name) return { name: name.literal };
  return {
    lastName: name.family,
    firstName: name.given,
    ...(name.particle && { prefix: name.particle }),
    ...(name.suffix && { suffix: name.suffix }),
  };
}

/** The field names an entry of a described paper has. */
function fieldNames(citable: Citable): string[] {
  const names = citable.title ? ['title'] : [];
  if (citable.authors.length > 0) names.push('author');
  if (citable.container) names.push(citable.kind === 'journal' ? 'journal' : 'booktitle');
  if (citable.date) names.push('year');
  if (citable.statusNote) names.push('note');
  if (citable.arxiv) names.push('eprint', 'archiveprefix');
  if (citable.arxiv?.primaryClass) names.push('primaryclass');
  if (citable.doi) names.push('doi');
  if (citable.url) names.push('url');
  if (citable.abstract) names.push('abstract');
  if (citable.keywords.length > 0) names.push('keywords');
  return names.sort();
}

describe('toBibtex on realistic papers', () => {
  it('writes a conference oral as @inproceedings with its arXiv eprint', () => {
    expect(toBibtex([conferenceOral])).toBe(
      '@inproceedings{vaswani2017attention,\n' +
        '  title = {Attention Is All You Need},\n' +
        '  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob and Jones, Llion and Gomez, Aidan N. and Kaiser, {\\L}ukasz and Polosukhin, Illia},\n' +
        '  booktitle = {Advances in Neural Information Processing Systems},\n' +
        '  year = {2017},\n' +
        '  eprint = {1706.03762},\n' +
        '  archivePrefix = {arXiv},\n' +
        '  primaryClass = {cs.CL},\n' +
        '  url = {https://arxiv.org/abs/1706.03762},\n' +
        '  abstract = {The dominant sequence transduction models are based on complex recurrent or convolutional neural networks. We propose a new simple network architecture, the Transformer.},\n' +
        '  keywords = {attention, machine translation}\n' +
        '}\n',
    );
  });

  it('writes a withdrawn OpenReview submission as @misc with a note saying so', () => {
    expect(toBibtex([withdrawnSubmission])).toBe(
      '@misc{ruiz2024sparse,\n' +
        '  title = {Sparse Attention Without Tears},\n' +
        "  author = {Ruiz, Ana and Ortega, Tom{\\'a}s},\n" +
        '  year = {2024},\n' +
        '  note = {Withdrawn submission to ICLR 2024},\n' +
        '  url = {https://openreview.net/forum?id=B11bwYgfM},\n' +
        '  abstract = {We study sparse attention.},\n' +
        '  keywords = {sparse attention}\n' +
        '}\n',
    );
  });

  it.each([
    ['inproceedings', 'vaswani2017attention', conferenceOral, { booktitle: 'Advances in Neural Information Processing Systems' }],
    ['misc', 'jiang2024mixtral', arxivPreprint, { eprint: '2401.04088', archiveprefix: 'arXiv', primaryclass: 'cs.LG' }],
    ['article', 'lecun2015deep', journalArticle, { journal: 'Nature', doi: '10.1038/nature14539' }],
    ['article', 'wei2022emergent', tmlrArticle, { journal: 'Transactions on Machine Learning Research' }],
    ['misc', 'ruiz2024sparse', withdrawnSubmission, { note: 'Withdrawn submission to ICLR 2024' }],
    ['inproceedings', 'he2016deep', chineseAuthors, { doi: '10.1109/cvpr.2016.90', primaryclass: 'cs.CV' }],
    ['inproceedings', 'scholkopf2019kernel', diacritics, { title: 'Kernel Methods Beyond Gröbner Bases', booktitle: 'Conference on Learning Theory' }],
    ['misc', 'mullerludenscheidt2023regret', mathTitle, { title: 'Regret Bounds of O(√T) for ℓ₁-Regularized Online Learning', primaryclass: 'stat.ML' }],
  ] as const)('reads back @%s{%s} with its fields', (type, key, paper, fields) => {
    const [entry] = read(toBibtex([paper]));
    expect(entry!.type).toBe(type);
    expect(entry!.key).toBe(key);
    expect(entry!.fields).toMatchObject(fields);
  });

  it('reads every realistic paper back: one entry each, titles, names, years and links as stored', () => {
    const entries = read(toBibtex(REALISTIC));
    const citables = describeAll(REALISTIC);
    expect(entries.map((e) => e.key)).toEqual(citationKeys(citables));
    entries.forEach((entry, i) => {
      const citable = citables[i]!;
      expect(entry.fields.title).toBe(citable.paper.title);
      expect(entry.fields.author).toEqual(citable.authors.map(asCreator));
      expect(entry.fields.year).toBe(String(citable.paper.year));
      expect(Object.keys(entry.fields).sort()).toEqual(fieldNames(citable));
    });
  });

  it('splits names safely: particles, suffixes, Han script and organisations', () => {
    const [he, scholkopf, math] = read(toBibtex([chineseAuthors, diacritics, mathTitle]));
    expect(he!.fields.author!.at(-1)).toEqual({ name: '孙剑' });
    expect(scholkopf!.fields.author).toEqual([
      { lastName: 'Schölkopf', firstName: 'Bernhard' },
      { lastName: 'Szepesvári', firstName: 'Csaba' },
      { lastName: 'Matas', firstName: 'Jiří' },
      { lastName: 'Hauberg', firstName: 'Søren' },
      { lastName: 'Rossum', firstName: 'Guido', prefix: 'van' },
    ]);
    expect(math!.fields.author).toEqual([{ lastName: 'Müller-Lüdenscheidt', firstName: 'Zoë' }, { name: 'DeepMind Team' }]);
  });

  it('keeps a name with "and" in it one author', () => {
    const paper = rawPaper({ id: 'x', title: 'T', authors: ['Smith and Jones', 'Ana Ruiz', 'others'] });
    expect(read(toBibtex([paper]))[0]!.fields.author).toEqual([{ name: 'Smith and Jones' }, { lastName: 'Ruiz', firstName: 'Ana' }, { name: 'others' }]);
  });

  it('braces the words whose capitals must survive a style lowercasing the title', () => {
    const paper = rawPaper({ id: 'x', title: 'BERT: Pre-training on ImageNet with GPT-4, iPhone and Transformers', authors: [] });
    expect(bibtexTitle(paper.title)).toBe('{BERT}: Pre-training on {ImageNet} with {GPT-4}, {iPhone} and Transformers');
    // Zotero records case protection as nocase spans: exactly the braced words have one.
    const [entry] = parse(toBibtex([paper]), { caseProtection: 'strict' }).entries;
    const protectedWords = [...entry!.fields.title!.matchAll(/<span class="nocase">(.*?)<\/span>/g)].map((m) => m[1]);
    expect(protectedWords).toEqual(['BERT', 'ImageNet', 'GPT-4', 'iPhone']);
  });

  it.each([
    ['Attention Is All You Need', 'Attention Is All You Need'],
    ['On the convergence of Adam and beyond', 'On the convergence of {Adam} and beyond'],
    ['A survey of Transformers for Chinese NLP: methods and results', 'A survey of {Transformers} for {Chinese} {NLP}: methods and results'],
    ['Regret Bounds of O(√T) for ℓ₁-Regularized Online Learning', 'Regret Bounds of {O(√T)} for ℓ₁-Regularized Online Learning'],
    ['(BERT) meets [GPT-4]', '({BERT}) meets [{GPT-4}]'],
    ['Émile and ÉA', "{\\'E}mile and {{\\'E}A}"],
  ])('protects the capitals of %j', (title, written) => {
    expect(bibtexTitle(title)).toBe(written);
  });

  it('protects the names in a title written in sentence case, as Zotero reads them', () => {
    const paper = rawPaper({ id: 'x', title: 'On the convergence of Adam and beyond in PyTorch', authors: [] });
    const [entry] = parse(toBibtex([paper]), { caseProtection: 'strict' }).entries;
    expect([...entry!.fields.title!.matchAll(/<span class="nocase">(.*?)<\/span>/g)].map((m) => m[1])).toEqual(['Adam', 'PyTorch']);
  });

  it('writes accented Latin letters as accent commands and keeps other scripts and symbols in UTF-8', () => {
    expect(bibtexText('Gröbner Čech Ñandú Łódź Straße ø å ı')).toBe(
      'Gr{\\"o}bner {\\v{C}}ech {\\~N}and{\\\'u} {\\L}{\\\'o}d{\\\'z} Stra{\\ss}e {\\o} {\\aa} {\\i}',
    );
    expect(bibtexText('O(√T) ℓ₁ 张三 Ελλάδα')).toBe('O(√T) ℓ₁ 张三 Ελλάδα');
  });

  it('escapes every LaTeX special without an unbalanced brace, and keeps ligature pairs apart', () => {
    const text = '# $ % & _ { } ~ ^ \\ < > | -- `` \'\'';
    const escaped = bibtexText(text);
    expect(escaped).toBe(
      '\\# \\$ \\% \\& \\_ \\textbraceleft{} \\textbraceright{} \\textasciitilde{} \\textasciicircum{} \\textbackslash{} ' +
        "\\textless{} \\textgreater{} \\textbar{} -{}- `{}` '{}'",
    );
    const [entry] = read(`@misc{k,\n  note = {${escaped}}\n}\n`);
    expect(entry!.fields.note).toBe(text);
  });

  it('percent-encodes only braces, backslashes and dollars in URLs and DOIs', () => {
    const paper = rawPaper({
      id: 'x', title: 'T', authors: [],
      links: { page: 'https://example.org/a?b=c%20{d}\\e#f$_&~' }, externalIds: { doi: '10.1000/x{y}' },
    });
    const bib = toBibtex([paper]);
    expect(bib).toContain('  url = {https://example.org/a?b=c%20%7Bd%7D%5Ce#f%24_&~}');
    expect(read(bib)[0]!.fields.url).toBe('https://example.org/a?b=c%20%7Bd%7D%5Ce#f%24_&~');
    expect(bib).toContain('  doi = {10.1000/x%7By%7D}');
  });

  it('gives the same bytes for the same papers', () => {
    expect(toBibtex(structuredClone(REALISTIC))).toBe(toBibtex(REALISTIC));
  });

  it('writes a paper listed twice once, and nothing for no papers', () => {
    expect(read(toBibtex([conferenceOral, journalArticle, conferenceOral])).map((e) => e.key)).toEqual(['vaswani2017attention', 'lecun2015deep']);
    expect(toBibtex([])).toBe('');
  });
});

describe('toBibtex on hostile text', () => {
  it('never breaks an entry, adds a field or starts another entry, and reads back the text as cleaned', () => {
    fc.assert(
      fc.property(hostilePapers, (papers) => {
        const citables = describeAll(papers);
        const entries = read(toBibtex(papers));
        expect(entries.map((e) => e.key)).toEqual(citationKeys(citables));
        entries.forEach((entry, i) => {
          const citable = citables[i]!;
          expect(Object.keys(entry.fields).sort()).toEqual(fieldNames(citable));
          // The title's matched braces are brace groups (case protection), read back as such.
          expect(withoutBraces(entry.fields.title ?? '')).toBe(withoutBraces(citable.title));
          expect(entry.fields.abstract).toBe(citable.abstract || undefined);
          expect(entry.fields.author?.length ?? 0).toBe(citable.authors.length);
          expect(citable.title).toBe(cleanText(papers[i]!.title));
        });
      }),
      { numRuns: 300 },
    );
  });
});
