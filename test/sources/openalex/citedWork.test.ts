/**
 * What citations read of OpenAlex's works: a page of a list and single works as the API sends
 * them (fixtures in its shape), counts refused rather than coerced, and hostile bodies that
 * throw nothing but OpenAlexError.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citedWorkOf, countProblem, parseCitedWork, parseWorksPage } from '../../../src/sources/openalex/citedWork.js';
import { OpenAlexError } from '../../../src/sources/openalex/work.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/openalex/${name}`, import.meta.url)), 'utf8');

describe('parseWorksPage', () => {
  it('reads a page of works: ids, DOIs, arXiv ids, titles, years, authors, counts, references and the next cursor', () => {
    const page = parseWorksPage(fixture('works-page.json'));
    expect(page.total).toBe(3);
    expect(page.nextCursor).toBe('IlsxMDAuMCwgJ2h0dHBzOi8vb3BlbmFsZXgub3JnL1c0MzkwMDAwMDEzJ10i');
    expect(page.problems).toEqual([]);
    expect(page.works).toEqual([
      {
        id: 'W4390000011',
        doi: '10.5555/invented.2023.11',
        arxiv: '2305.10001',
        title: 'Sparse Routing for Invented Mixtures of Experts',
        year: 2023,
        authors: ['Aino Virtanen', 'Rahul Iyer', 'Mei Chen'],
        count: 412,
        references: ['https://openalex.org/W4390000012', 'https://openalex.org/W4390000099', 'https://openalex.org/W2741809807'],
      },
      { id: 'W4390000012', doi: '10.48550/arxiv.2204.10002', arxiv: '2204.10002', title: 'Invented Benchmarks for Routing', year: 2022, authors: ['Mei Chen'], count: 0, references: [] },
      { id: 'W4390000013', title: 'A Survey of Invented Routers', year: 2024, authors: ['Olu Adeyemi', 'Sofia Rossi'], count: 37, references: [] },
    ]);
  });

  it('reads the single work of /works/doi:… the lookup fixture holds', () => {
    expect(parseCitedWork(fixture('work-10.5555-invented.2024.77.json'))).toMatchObject({ id: 'W4390000001', doi: '10.5555/invented.2024.77', count: 3, authors: ['Aino Virtanen', 'Rahul Iyer'] });
  });

  it('keeps the works of a page whose other results are not works, and says which', () => {
    const page = parseWorksPage(JSON.stringify({ meta: { count: 3, next_cursor: null }, results: [null, { id: 'W7', cited_by_count: 1 }, { id: 'A123' }] }));
    expect(page.works.map((w) => w.id)).toEqual(['W7']);
    expect(page.problems).toEqual([
      { index: 0, reason: 'expected an OpenAlex work (a JSON object)' },
      { index: 2, reason: 'expected an OpenAlex work id (https://openalex.org/W…), got "A123"' },
    ]);
    expect(page.nextCursor).toBeUndefined();
  });

  it.each([
    ['an HTML error page', '<html><body>Bad gateway</body></html>', /expected JSON from OpenAlex, got "<html><body>Bad gateway/],
    ['an empty body', '', /got an empty body/],
    ['an error object', '{"error":"Invalid query parameters error.","message":"x is not a valid field"}', /expected a list of works/],
    ['a list without results', '{"meta":{"count":0}}', /expected a list of works/],
    ['JSON that is no object', '[1,2]', /expected a list of works/],
  ])('refuses %s as not a page', (_, body, message) => {
    expect(() => parseWorksPage(body)).toThrow(OpenAlexError);
    expect(() => parseWorksPage(body)).toThrow(message);
  });
});

describe('counts', () => {
  it.each([
    [0, undefined],
    [12345, undefined],
    [10_000_000, undefined],
    [-3, 'cited_by_count -3 is not a whole number from 0 to 10,000,000'],
    [10_000_001, 'cited_by_count 10000001 is not a whole number from 0 to 10,000,000'],
    [2.5, 'cited_by_count 2.5 is not a whole number from 0 to 10,000,000'],
    ['12', 'cited_by_count "12" is not a whole number from 0 to 10,000,000'],
    [Number.NaN, 'cited_by_count NaN is not a whole number from 0 to 10,000,000'],
    [null, 'the work has no cited_by_count'],
    [undefined, 'the work has no cited_by_count'],
    [{ n: 1 }, 'cited_by_count object is not a whole number from 0 to 10,000,000'],
  ])('%s → %s', (value, problem) => {
    expect(countProblem(value)).toBe(problem);
    const work = citedWorkOf({ id: 'W1', cited_by_count: value });
    expect(work.count === undefined).toBe(problem !== undefined);
    expect(work.refused).toBe(problem);
  });
});

describe('citedWorkOf on hostile input', () => {
  it('throws only OpenAlexError, and what it returns is well formed', () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const workish = fc.record(
      {
        id: fc.oneof(fc.constant('https://openalex.org/W42'), fc.string(), anyJson),
        display_name: fc.oneof(fc.string(), anyJson),
        doi: fc.oneof(fc.string(), anyJson),
        publication_year: fc.oneof(fc.integer(), anyJson),
        authorships: fc.oneof(fc.array(fc.record({ author: fc.oneof(fc.record({ display_name: fc.oneof(fc.string(), anyJson) }), anyJson), raw_author_name: anyJson }, { requiredKeys: [] })), anyJson),
        cited_by_count: fc.oneof(fc.integer(), fc.double(), anyJson),
        referenced_works: fc.oneof(fc.array(fc.oneof(fc.string(), anyJson)), anyJson),
        locations: fc.oneof(fc.array(fc.record({ landing_page_url: fc.oneof(fc.string(), anyJson) }, { requiredKeys: [] })), anyJson),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(workish, anyJson), (value) => {
        let work;
        try {
          work = citedWorkOf(value);
        } catch (error) {
          expect(error).toBeInstanceOf(OpenAlexError);
          return;
        }
        expect(work.id).toMatch(/^W[1-9]\d*$/);
        expect(typeof work.title).toBe('string');
        expect(work.authors.every((a) => typeof a === 'string' && a !== '')).toBe(true);
        expect(work.references.every((r) => typeof r === 'string')).toBe(true);
        expect((work.count === undefined) !== (work.refused === undefined)).toBe(true);
        if (work.count !== undefined) expect(Number.isInteger(work.count) && work.count >= 0 && work.count <= 10_000_000).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('throws only OpenAlexError on any body', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (body) => {
        try {
          parseWorksPage(body);
        } catch (error) {
          expect(error).toBeInstanceOf(OpenAlexError);
        }
      }),
    );
  });
});
