import { describe, expect, it } from 'vitest';
import { mapPaperlists, parsePaperlistsFileName, splitAuthors } from '../../src/ingest/formats/paperlists.js';
import { mapArxiv } from '../../src/ingest/formats/arxiv.js';
import { csvColumns, mapGeneric } from '../../src/ingest/formats/generic.js';
import { FormatError } from '../../src/ingest/types.js';
import { detectFormat, planFile } from '../../src/ingest/detect.js';
import { validate, type MapResult } from '../../src/ingest/formats/fields.js';
import type { PaperRecord } from '../../src/papers/model.js';

const ICML_2019 = { venueCode: 'icml', year: 2019 };

function record(result: MapResult): PaperRecord {
  if (!result.ok) throw new Error(`expected a record, got: ${result.reason}`);
  return result.record;
}

describe('paperlists', () => {
  it.each([
    ['icml2019.json', { venueCode: 'icml', year: 2019 }],
    ['siggraphasia2023.json', { venueCode: 'siggraphasia', year: 2023 }],
    ['3dv2025.json', { venueCode: '3dv', year: 2025 }],
    ['NIPS1987.json', { venueCode: 'nips', year: 1987 }],
    ['icml2019.jsonl', undefined],
    ['papers.json', undefined],
    ['model1234.json', undefined],
  ])('reads venue and year from the file name %s', (name, expected) => {
    expect(parsePaperlistsFileName(name)).toEqual(expected);
  });

  it.each([
    ['a repeated list (IROS)', 'A One;B Two;C Three;A One;B Two;C Three', ['A One', 'B Two', 'C Three']],
    ['spaces, empty entries and NBSP', ' A\u00a0One ;; B  Two; ', ['A One', 'B Two']],
    ['commas when there is no semicolon', 'A One, B Two, C Three', ['A One', 'B Two', 'C Three']],
    ['"; and C" endings', 'A One; B Two; and C Three', ['A One', 'B Two', 'C Three']],
    ['"; B and C" endings', 'A One; B Two and C Three', ['A One', 'B Two', 'C Three']],
    ['one name with "and" in it, kept whole', 'Research and Development Team', ['Research and Development Team']],
    ['nothing', '', []],
  ])('splits authors: %s', (_name, field, expected) => {
    expect(splitAuthors(field)).toEqual(expected);
  });

  it('maps every field', () => {
    const result = record(
      mapPaperlists(
        {
          id: '4101', title: ' Sparse  Gradient\nEchoes ', author: 'Mara Quill; Tobias Renfrew', abstract: ' We  study.\n',
          status: 'Oral', track: 'main', site: 'https://icml.cc/virtual/2019/poster/4101', pdf: 'http://x.org/a.pdf',
          keywords: 'sparsity; gradients;; ', primary_area: 'Optimization', arxiv: 'arXiv:1901.04321v3',
          doi: '10.5555/ICML.2019.4101', github: 'https://github.com/example/echoes', project: 'echoes.example.org', tldr: 'ignored',
        },
        ICML_2019,
      ),
    );
    expect(result).toEqual({
      sourceKey: 'icml2019:4101',
      title: 'Sparse Gradient Echoes',
      authors: ['Mara Quill', 'Tobias Renfrew'],
      abstract: 'We study.',
      venue: 'ICML',
      year: 2019,
      status: 'Oral',
      keywords: ['sparsity', 'gradients'],
      labels: ['Optimization'],
      links: { page: 'https://icml.cc/virtual/2019/poster/4101', pdf: 'http://x.org/a.pdf', code: 'https://github.com/example/echoes' },
      externalIds: { arxiv: '1901.04321', doi: '10.5555/icml.2019.4101' },
    });
  });

  it.each([
    ['a bare DOI', '10.1609/AAAI.v36i1.19922', '10.1609/aaai.v36i1.19922'],
    ['a doi.org URL', 'https://doi.org/10.1145/3197517.3201400', '10.1145/3197517.3201400'],
    ['a publisher URL embedding one', 'https://link.springer.com/chapter/10.1007/978-3-031-20083-0_1', '10.1007/978-3-031-20083-0_1'],
    ['a URL broken by a stray space', 'https://link.springer.com/chapter/10.1007/978-3-031-19836-6 _31', '10.1007/978-3-031-19836-6_31'],
    ['a URL without a DOI', 'https://example.org/paper/12', undefined],
  ])('reads the DOI from %s', (_name, doi, expected) => {
    expect(record(mapPaperlists({ title: 'T', author: 'A', doi }, ICML_2019)).externalIds.doi).toBe(expected);
  });

  it('takes the OpenReview id from an openreview.net site only', () => {
    const forum = record(mapPaperlists({ id: 'x', title: 'T', site: 'https://openreview.net/forum?id=B11bwYgfM' }, ICML_2019));
    expect(forum.externalIds).toEqual({ openreview: 'B11bwYgfM' });
    const other = record(mapPaperlists({ id: 'x', title: 'T', site: 'https://example.org/forum?id=B11bwYgfM' }, ICML_2019));
    expect(other.externalIds).toEqual({});
  });

  it('keys a record without an id by a hash of its normalized title, and falls back to oa for the page', () => {
    const a = record(mapPaperlists({ title: 'A Paper Without an Id!', oa: 'https://proceedings.example/a.html' }, ICML_2019));
    const b = record(mapPaperlists({ title: 'a paper without an ID', oa: 'not a url' }, ICML_2019));
    expect(a.sourceKey).toMatch(/^icml2019:t:[0-9a-f]{12}$/);
    expect(b.sourceKey).toBe(a.sourceKey);
    expect(a.links).toEqual({ page: 'https://proceedings.example/a.html' });
    expect(b.links).toEqual({});
  });

  it('names venues by their display names', () => {
    expect(record(mapPaperlists({ title: 'T' }, { venueCode: 'siggraphasia', year: 2023 })).venue).toBe('SIGGRAPH Asia');
    expect(record(mapPaperlists({ title: 'T' }, { venueCode: 'nips', year: 2017 })).venue).toBe('NeurIPS');
  });

  it.each([
    ['no title', { author: 'A', status: 'Technical Paper' }, 'title: title is empty'],
    ['a blank title', { title: '  \n ' }, 'title: title is empty'],
    ['a title of the wrong type', { title: 42 }, 'title: expected a string, got the number 42'],
    ['a record that is not an object', ['title'], 'record: expected an object, got an array'],
  ])('rejects a record with %s', (_name, value, reason) => {
    expect(mapPaperlists(value, ICML_2019)).toEqual({ ok: false, reason });
  });
});

describe('arXiv snapshot', () => {
  const line = {
    id: '2401.01234v2', submitter: 'M. Quill', authors: 'Mara Quill and Tobias Renfrew', title: 'Sparse Gradient Echoes in\n  Deep Networks',
    comments: null, 'journal-ref': null, doi: 'https://doi.org/10.5555/X.1', 'report-no': null, categories: 'cs.LG stat.ML', license: null,
    abstract: '  We study echoes.\n', versions: [{ version: 'v1', created: 'Tue, 2 Jan 2024 18:00:01 GMT' }, { version: 'v2', created: 'Fri, 9 Feb 2024 10:11:12 GMT' }],
    update_date: '2024-02-12', authors_parsed: [['Quill', 'Mara', ''], ['Renfrew', 'Tobias', 'Jr']],
  };

  it('maps a record, collapsing the version out of the id', () => {
    expect(record(mapArxiv(line))).toEqual({
      sourceKey: 'arxiv:2401.01234',
      title: 'Sparse Gradient Echoes in Deep Networks',
      authors: ['Mara Quill', 'Tobias Renfrew Jr'],
      abstract: 'We study echoes.',
      venue: 'arXiv',
      year: 2024,
      status: '',
      keywords: [],
      labels: ['cs.LG', 'stat.ML'],
      links: { page: 'https://arxiv.org/abs/2401.01234', pdf: 'https://arxiv.org/pdf/2401.01234' },
      externalIds: { arxiv: '2401.01234', doi: '10.5555/x.1' },
      published: '2024-01-02',
    });
  });

  it('falls back to the authors string and to update_date', () => {
    const result = record(mapArxiv({ ...line, authors_parsed: undefined, versions: [], update_date: '2023-12-30' }));
    expect(result.authors).toEqual(['Mara Quill', 'Tobias Renfrew']);
    expect(result).toMatchObject({ year: 2023, published: '2023-12-30' });
  });

  it('keeps old-style ids', () => {
    expect(record(mapArxiv({ ...line, id: 'hep-th/9901001' })).sourceKey).toBe('arxiv:hep-th/9901001');
  });

  it.each([
    ['a missing id', { ...line, id: undefined }, 'id: missing'],
    ['an id that is not an arXiv id', { ...line, id: 'abc' }, 'id: not an arXiv id: "abc"'],
    ['a malformed authors_parsed', { ...line, authors_parsed: [['Quill', 3]] }, 'authors_parsed[0]: expected [last, first, suffix] strings'],
  ])('rejects %s', (_name, value, reason) => {
    expect(mapArxiv(value)).toEqual({ ok: false, reason });
  });
});

describe('generic records', () => {
  it('accepts the model field names and the usual aliases', () => {
    expect(
      record(
        mapGeneric(
          {
            id: 7, title: 'Tiny  Attention', author: 'Ruth Adeyemi; Kai Lindqvist', summary: 'Small.', venue: 'NeurIPS', year: '2023',
            keywords: ['attention', 'attention', ' efficiency '], url: 'https://example.org/7', github: 'https://github.com/e/t',
            links: { pdf: 'https://example.org/7.pdf' }, topics: ['ignored'], published: 'Mon, 2 Oct 2023 10:00:00 GMT',
          },
          'mine',
        ),
      ),
    ).toEqual({
      sourceKey: 'mine:7',
      title: 'Tiny Attention',
      authors: ['Ruth Adeyemi', 'Kai Lindqvist'],
      abstract: 'Small.',
      venue: 'NeurIPS',
      year: 2023,
      status: '',
      keywords: ['attention', 'efficiency'],
      labels: [],
      links: { page: 'https://example.org/7', pdf: 'https://example.org/7.pdf', code: 'https://github.com/e/t' },
      externalIds: {},
      published: '2023-10-02',
    });
  });

  it('uses no source key when the record has an external id', () => {
    const result = record(mapGeneric({ id: 'x1', title: 'T', externalIds: { doi: 'doi:10.5555/ABC' }, arxiv: '2310.05555v1' }, 'mine'));
    expect(result.sourceKey).toBeUndefined();
    expect(result.externalIds).toEqual({ arxiv: '2310.05555', doi: '10.5555/abc' });
  });

  it('treats empty CSV cells as absent', () => {
    const result = record(mapGeneric({ title: 'T', authors: '', year: '', venue: '', url: '' }, 'mine'));
    expect(result).toMatchObject({ authors: [], year: null, venue: '', links: {} });
  });

  it.each([
    ['a year that is not a number', { title: 'T', year: 'abc' }, 'year: expected a year such as 2024, got "abc"'],
    ['a fractional year', { title: 'T', year: 2020.5 }, 'year: expected a year such as 2024, got 2020.5'],
    ['a year out of range', { title: 'T', year: 1066 }, 'year: Too small: expected number to be >=1900'],
    ['authors of the wrong type', { title: 'T', authors: [1] }, 'authors[0]: expected a string, got the number 1'],
    ['an arXiv id given as a number', { title: 'T', arxiv: 2401.0123 }, 'arxiv: expected a string, got the number 2401.0123'],
    ['an unreadable date', { title: 'T', date: 'soon' }, 'date: expected a date such as 2024-01-31, got "soon"'],
    ['an empty title', { title: '' }, 'title: title is empty'],
    ['links that are not an object', { title: 'T', links: 'https://x.org' }, 'links: expected an object'],
  ])('rejects %s', (_name, value, reason) => {
    expect(mapGeneric(value, 'mine')).toEqual({ ok: false, reason });
  });
});

describe('validate', () => {
  it('lists every problem with its field path', () => {
    expect(validate({ title: '', authors: ['ok', ''] })).toEqual({
      ok: false,
      reason: 'title: title is empty; authors.1: Too small: expected string to have >=1 characters',
    });
  });
});

describe('detectFormat', () => {
  it.each([
    ['a paperlists file', 'icml2019.json', '[\n {\n  "id": "1",\n  "title": "T",\n  "author": "A; B"\n }\n]', { kind: 'paperlists', venueCode: 'icml', year: 2019 }],
    ['paperlists whose first record lacks an author', 'sa2021.json', '[{"status": "x"}, {"title": "T", "author": "A"}]', { kind: 'paperlists', venueCode: 'sa', year: 2021 }],
    ['paperlists cut inside its first record', 'icml2019.json', '[{"title": "T", "author": "A", "abstract": "lo', { kind: 'paperlists', venueCode: 'icml', year: 2019 }],
    ['an array under another name', 'mine.json', '[{"title": "T", "author": "A"}]', { kind: 'generic', container: 'json-array' }],
    ['an array with model field names', 'icml2019.json', '[{"title": "T", "authors": ["A"]}]', { kind: 'generic', container: 'json-array' }],
    ['the arXiv snapshot', 'arxiv-metadata-oai-snapshot.json', '{"id": "0704.0001", "versions": []}\n{"id": "0704.0002"', { kind: 'arxiv' }],
    ['generic JSON Lines after a bad first line', 'x.jsonl', '{oops\n{"title": "T"}\n', { kind: 'generic', container: 'jsonl' }],
    ['one JSON line without a line break', 'x.ndjson', '{"title": "T"}', { kind: 'generic', container: 'jsonl' }],
    ['a CSV file by name', 'x.csv', '[not json', { kind: 'generic', container: 'csv', delimiter: ',' }],
    ['a semicolon CSV', 'x.CSV', 'title;authors\nA, B;C\n', { kind: 'generic', container: 'csv', delimiter: ';' }],
    ['a TSV file by name', 'x.tsv', 'title\tyear\nA\t2020\n', { kind: 'generic', container: 'csv', delimiter: '\t' }],
    ['an empty file', 'x.json', ' \n', { kind: 'empty' }],
  ])('recognizes %s', (_name, file, head, expected) => {
    expect(detectFormat(file, head)).toEqual(expected);
  });

  it.each([
    ['a pretty-printed object', 'x.json', '{\n  "papers": []\n}\n', /^starts with "\{" but its first lines are not complete JSON objects/],
    ['plain text', 'notes.json', 'hello', /^unrecognized format: starts with "hello"/],
  ])('explains why it cannot read %s', (_name, file, head, reason) => {
    const detection = detectFormat(file, head);
    expect(detection.kind).toBe('unknown');
    expect(detection.kind === 'unknown' && detection.reason).toMatch(reason);
  });

  it('names sources after the file', () => {
    expect(planFile('/x/icml/icml2019.json', { kind: 'paperlists', venueCode: 'icml', year: 2019 }).source).toBe('paperlists:icml2019');
    expect(planFile('/x/snapshot.json', { kind: 'arxiv' }).source).toBe('arxiv');
    expect(planFile('/x/mine.csv', { kind: 'generic', container: 'csv', delimiter: ',' }).source).toBe('file:mine');
  });
});

describe('csvColumns', () => {
  it.each([
    [['Title', 'Authors', 'Abstract'], ['title', 'authors', 'abstract']],
    [['titles', 'author', 'summaries'], ['title', 'authors', 'abstract']],
    [['Paper Title', 'Author(s)', 'Abstract Note', 'Publication Year', 'Source title'], ['title', 'authors', 'abstract', 'year', 'venue']],
    [['PAPER_TITLE', 'summary', 'Link'], ['title', 'abstract', 'url']],
    // A field named exactly keeps its column; an alias of it stays as it is (mapGeneric may still read it).
    [['summary', 'abstract', 'title', 'Title'], ['summary', 'abstract', 'title', 'Title']],
    [['title', 'column 2', 'Notes'], ['title', 'column 2', 'Notes']],
  ])('reads %j as %j', (names, expected) => {
    expect(csvColumns(names)).toEqual(expected);
  });

  it('stops a file without a title column with one error naming what it found and what it expected', () => {
    expect(() => csvColumns(['Name', 'Author', 'Year'])).toThrow(FormatError);
    expect(() => csvColumns(['Name', 'Author', 'Year'])).toThrow(
      'no title column. Columns found: "Name", "Author", "Year". Expected: "title" (or "titles", "paper title"), and any of ' +
        '"authors", "abstract", "venue", "year", "keywords", "url", "pdf", "code", "doi", "arxiv", "openreview", "status", "id". ' +
        'Rename the column holding the paper titles to "title".',
    );
    expect(() => csvColumns(Array.from({ length: 30 }, (_, i) => `c${i}`))).toThrow(/"c19" and 10 more\. Expected/);
  });
});

describe('LaTeX in mapped records', () => {
  it('is decoded for every source, since every mapper validates against the model', () => {
    const arxiv = record(mapArxiv({ id: '2401.00001', title: 'Heavy fermions in CeAg$_2$Ge$_2$', authors: 'J\\\'anos Erd{\\H o}di', abstract: 'A $\\beta$-phase --- at last.' }));
    expect(arxiv).toMatchObject({ title: 'Heavy fermions in CeAg₂Ge₂', authors: ['János Erdődi'], abstract: 'A β-phase — at last.' });
    const paperlists = record(mapPaperlists({ id: '1', title: 'Gr\\"obner Bases', author: 'Mirela Ko\\v{s}ir; Bo~Chen' }, ICML_2019));
    expect(paperlists).toMatchObject({ title: 'Gröbner Bases', authors: ['Mirela Košir', 'Bo Chen'] });
    expect(validate({ title: '{\\bf}', authors: [] })).toEqual({ ok: false, reason: 'title: title is empty' });
  });
});
