/**
 * What the three formats share: the kind of work a paper is, its names, its cleaned text and
 * its citation key.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citationKeys, cleanText, describeAll, describePaper, type WorkKind } from '../../../src/papers/export/entry.js';
import { invertedName, splitName, type PersonName } from '../../../src/papers/export/names.js';
import { EXPORT_FORMATS, exportPapers, isExportFormat } from '../../../src/papers/export/index.js';
import { hostilePapers } from './hostile.js';
import { REALISTIC, chineseAuthors, conferenceOral, rawPaper } from './papers.js';

describe('splitName', () => {
  it.each<[string, PersonName]>([
    ['Ashish Vaswani', { family: 'Vaswani', given: 'Ashish' }],
    ['Aidan N. Gomez', { family: 'Gomez', given: 'Aidan N.' }],
    ['Jean-Pierre Chevalier', { family: 'Chevalier', given: 'Jean-Pierre' }],
    ["Patrick O'Brien", { family: "O'Brien", given: 'Patrick' }],
    ['Guido van Rossum', { family: 'Rossum', given: 'Guido', particle: 'van' }],
    ['Ursula von der Leyen', { family: 'Leyen', given: 'Ursula', particle: 'von der' }],
    ['Martin Luther King Jr.', { family: 'King', given: 'Martin Luther', suffix: 'Jr.' }],
    ['Jiří Matas', { family: 'Matas', given: 'Jiří' }],
    ['Vaswani, Ashish', { family: 'Vaswani', given: 'Ashish' }],
    ['张三', { literal: '张三' }],
    ['Kim 민준', { literal: 'Kim 민준' }],
    ['Google DeepMind', { literal: 'Google DeepMind' }],
    ['The LLaMA Team', { literal: 'The LLaMA Team' }],
    ['Smith and Jones', { literal: 'Smith and Jones' }],
    ['Plato', { literal: 'Plato' }],
    ['R2-D2 Droid', { literal: 'R2-D2 Droid' }],
    ['Ana {Ruiz}', { literal: 'Ana {Ruiz}' }],
    ['King, Jr., Martin', { literal: 'King, Jr., Martin' }],
  ])('splits %j safely', (name, parts) => {
    expect(splitName(name)).toEqual(parts);
  });

  it('writes a name family first for RIS', () => {
    expect(invertedName(splitName('Guido van Rossum'))).toBe('van Rossum, Guido');
    expect(invertedName(splitName('Martin Luther King Jr.'))).toBe('King, Martin Luther, Jr.');
    expect(invertedName(splitName('Google DeepMind'))).toBe('Google DeepMind');
  });
});

describe('describePaper', () => {
  const kind = (fields: Partial<Parameters<typeof rawPaper>[0]>): WorkKind =>
    describePaper(rawPaper({ id: 'x', title: 'T', authors: [], ...fields })).kind;

  it.each<[string, Partial<Parameters<typeof rawPaper>[0]>, WorkKind]>([
    ['a conference paper with a decision', { venue: 'ICLR', status: 'Poster' }, 'conference'],
    ['a conference paper without a status', { venue: 'CVPR' }, 'conference'],
    ['a conference paper with a DOI', { venue: 'AAAI', status: 'Technical', externalIds: { doi: '10.1609/aaai.v36i6.20617' } }, 'conference'],
    ['a TMLR paper', { venue: 'TMLR', status: 'Accepted' }, 'journal'],
    ['a SIGGRAPH paper in TOG', { venue: 'SIGGRAPH', status: 'TOG Paper' }, 'journal'],
    ['an unknown venue with a DOI', { venue: 'Nature', externalIds: { doi: '10.1038/nature14539' } }, 'journal'],
    ['a venue named a journal', { venue: 'IEEE Transactions on Robotics' }, 'journal'],
    ['an unknown venue with a decision', { venue: 'MIDL', status: 'Oral' }, 'conference'],
    ['an arXiv preprint', { venue: 'arXiv', externalIds: { arxiv: '2401.04088' } }, 'preprint'],
    ['a paper with only an arXiv id', { externalIds: { arxiv: '2401.04088' } }, 'preprint'],
    ['a withdrawn submission', { venue: 'ICLR', status: 'Withdrawn' }, 'unpublished'],
    ['a status in the source\'s words', { venue: 'ICLR', status: 'Withdraw' }, 'unpublished'],
    ['a rejected submission', { venue: 'ICLR', status: 'Rejected' }, 'unpublished'],
    ['a submission under review', { venue: 'ICLR', status: 'Under review', externalIds: { arxiv: '2401.04088' } }, 'unpublished'],
    ['a paper with nothing', {}, 'other'],
    ['an unknown venue alone', { venue: 'Some Blog' }, 'other'],
  ])('tells %s', (_, fields, expected) => {
    expect(kind(fields)).toBe(expected);
  });

  it('names the proceedings of Findings, workshops and demonstrations', () => {
    const container = (venue: string, status: string) => describePaper(rawPaper({ id: 'x', title: 'T', authors: [], venue, status })).container;
    expect(container('EMNLP', 'Findings')).toEqual({
      name: 'Findings of the Association for Computational Linguistics: EMNLP', short: 'Findings of EMNLP',
      event: 'Conference on Empirical Methods in Natural Language Processing',
    });
    expect(container('ICML', 'Poster Workshop')?.name).toBe('International Conference on Machine Learning Workshops');
    expect(container('ACL', 'System Demonstrations')?.name).toBe('Annual Meeting of the Association for Computational Linguistics: System Demonstrations');
  });

  it('says what became of a submission, with its venue and year', () => {
    const note = (venue: string, status: string, year: number | null) =>
      describePaper(rawPaper({ id: 'x', title: 'T', authors: [], venue, status, year })).statusNote;
    expect(note('ICLR', 'Withdrawn', 2024)).toBe('Withdrawn submission to ICLR 2024');
    expect(note('NeurIPS', 'Desk Rejected', 2023)).toBe('Desk-rejected submission to NeurIPS 2023');
    expect(note('ICLR', 'Under review', null)).toBe('Submitted to ICLR');
    expect(note('', 'Rejected', 2024)).toBe('Rejected');
    expect(note('ICLR', 'Oral', 2024)).toBeUndefined();
  });

  it('takes the arXiv category from the labels, and only a real one', () => {
    const primary = (labels: string[]) =>
      describePaper(rawPaper({ id: 'x', title: 'T', authors: [], labels, externalIds: { arxiv: '2401.04088' } })).arxiv?.primaryClass;
    expect(primary(['cs.LG', 'stat.ML'])).toBe('cs.LG');
    expect(primary(['hep-th'])).toBe('hep-th');
    expect(primary(['generative models', 'cs.CV'])).toBe('cs.CV');
    expect(primary(['generative models'])).toBeUndefined();
  });

  it('drops identifiers and links that are not what they claim', () => {
    const citable = describePaper(rawPaper({
      id: 'x', title: 'T', authors: [],
      externalIds: { arxiv: '2401.04088}\n@misc{', doi: 'not a doi', openreview: 'ab' },
      links: { page: 'javascript:alert(1)' },
    }));
    expect(citable.arxiv).toBeUndefined();
    expect(citable.doi).toBeUndefined();
    expect(citable.url).toBeUndefined();
    const unassigned = describePaper(rawPaper({ id: 'y', title: 'T', authors: [], links: { page: 'https://x.org/\uffff' }, externalIds: { doi: '10.1000/\u{10fffe}' } }));
    expect([unassigned.url, unassigned.doi]).toEqual([undefined, undefined]);
  });

  it('lists keywords as reference managers split them, at commas and semicolons', () => {
    const citable = describePaper(rawPaper({ id: 'x', title: 'T', authors: [], keywords: ['graphs, trees', ' ; ', 'RL;theory', 'attention'] }));
    expect(citable.keywords).toEqual(['graphs', 'trees', 'RL', 'theory', 'attention']);
  });

  it('dates a preprint by its first version, and anything else by its year', () => {
    const preprint = describePaper(rawPaper({ id: 'x', title: 'T', authors: [], venue: 'arXiv', year: 2024, published: '2024-01-08', externalIds: { arxiv: '2401.04088' } }));
    expect(preprint.date).toEqual({ year: 2024, month: 1, day: 8 });
    const conference = describePaper(rawPaper({ id: 'x', title: 'T', authors: [], venue: 'ICLR', status: 'Poster', year: 2024, published: '2023-09-28' }));
    expect(conference.date).toEqual({ year: 2024 });
    const undated = describePaper(rawPaper({ id: 'x', title: 'T', authors: [], published: '2023-13-40' }));
    expect(undated.date).toEqual({ year: 2023 });
  });
});

describe('cleanText', () => {
  it.each([
    ['Deep\u200b learning\r\n\tfor graphs ', 'Deep learning for graphs'],
    ['line\u2028separator\u0085next\u000bvertical', 'line separator next vertical'],
    ['e\u0301t\u00e9', 'été'],
    ['lone \ud800 half', 'lone \ufffd half'],
    ['non\uffffcharacters\u{10fffe}\ufdd0', 'non\ufffdcharacters\ufffd\ufffd'],
    ['astral \u{1f600} and \u{10fffd} stay', 'astral \u{1f600} and \u{10fffd} stay'],
    ['\u202eevil\u202c bidi', 'evil bidi'],
    ['plain ASCII stays', 'plain ASCII stays'],
  ])('cleans %j', (text, clean) => {
    expect(cleanText(text)).toBe(clean);
  });
});

describe('citationKeys', () => {
  const keyed = (...papers: Parameters<typeof rawPaper>[0][]) => citationKeys(describeAll(papers.map(rawPaper)));

  it('writes author, year and first title word that is not a stopword, in ASCII', () => {
    expect(citationKeys(describeAll(REALISTIC))).toEqual([
      'vaswani2017attention', 'jiang2024mixtral', 'lecun2015deep', 'wei2022emergent', 'ruiz2024sparse', 'he2016deep',
      'scholkopf2019kernel', 'mullerludenscheidt2023regret',
    ]);
    expect(keyed({ id: 'a', title: 'The Élan of Łódź', authors: ['Åsa Ørsted'], year: 2020 })).toEqual(['orsted2020elan']);
    expect(keyed({ id: 'a', title: '深度学习', authors: ['孙剑'], year: null })).toEqual(['anon']);
    expect(keyed({ id: 'a', title: 'Deep Residual Learning', authors: ['孙剑', 'Kaiming He'], year: 2016 })).toEqual(['he2016deep']);
  });

  it('tells papers apart with a, b, … in the order of their ids, whatever the order of the list', () => {
    const first = { id: 'openreview:a', title: 'Deep Nets', authors: ['Ana Smith'], year: 2020 };
    const second = { id: 'openreview:b', title: 'Deep Trees', authors: ['Bo Smith'], year: 2020 };
    const third = { id: 'openreview:c', title: 'Deep Forests', authors: ['Cy Smith'], year: 2020 };
    expect(keyed(first, second, third)).toEqual(['smith2020deep', 'smith2020deepa', 'smith2020deepb']);
    expect(keyed(third, first, second)).toEqual(['smith2020deepb', 'smith2020deep', 'smith2020deepa']);
  });

  it('never gives a suffixed key that another paper has as its own', () => {
    expect(keyed(
      { id: '1', title: 'Deep', authors: ['Ana Smith'], year: 2020 },
      { id: '2', title: 'Deep', authors: ['Ana Smith'], year: 2020 },
      { id: '3', title: 'Deepa', authors: ['Ana Smith'], year: 2020 },
    )).toEqual(['smith2020deep', 'smith2020deepb', 'smith2020deepa']);
  });

  it('goes on past z with aa, ab, …', () => {
    const papers = Array.from({ length: 30 }, (_, i) => ({ id: `p${String(i).padStart(2, '0')}`, title: 'Deep', authors: ['Ana Smith'], year: 2020 }));
    expect(keyed(...papers).slice(25)).toEqual(['smith2020deepy', 'smith2020deepz', 'smith2020deepaa', 'smith2020deepab', 'smith2020deepac']);
  });

  it('gives unique keys of ASCII letters and digits for any papers', () => {
    fc.assert(
      fc.property(hostilePapers, (papers) => {
        const keys = citationKeys(describeAll(papers));
        expect(new Set(keys).size).toBe(keys.length);
        for (const key of keys) expect(key).toMatch(/^[a-z0-9]+$/);
      }),
    );
  });
});

describe('exportPapers', () => {
  it('names each format with its media type and extension', () => {
    expect(EXPORT_FORMATS.map((format) => {
      const { mediaType, extension } = exportPapers([conferenceOral], format);
      return [format, mediaType, extension];
    })).toEqual([
      ['bibtex', 'application/x-bibtex', 'bib'],
      ['ris', 'application/x-research-info-systems', 'ris'],
      ['csljson', 'application/vnd.citationstyles.csl+json', 'json'],
    ]);
    expect(isExportFormat('csljson')).toBe(true);
    expect(isExportFormat('endnote')).toBe(false);
  });

  it('gives the same bytes for the same papers in every format', () => {
    for (const format of EXPORT_FORMATS) {
      expect(exportPapers(structuredClone([...REALISTIC, chineseAuthors]), format).content).toBe(exportPapers([...REALISTIC, chineseAuthors], format).content);
    }
  });
});
