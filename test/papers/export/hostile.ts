/**
 * Hostile papers for the export property tests: text full of what breaks bibliography files
 * (braces, backslashes, `%`, `@` and entry openers, line breaks of every kind, RIS tags,
 * zero-width and bidirectional characters, lone surrogates, "and" in names).
 */
import fc from 'fast-check';
import type { Paper } from '../../../src/papers/model.js';
import { rawPaper } from './papers.js';

export const HOSTILE_PIECES = [
  '}', '{', '\\', '%', '@', '#', '$', '&', '_', '~', '^', '"', ',', '<', '>', '|', '*',
  '\n', '\r\n', '\r', '\u2028', '\u2029', '\u0085', '\t', '\u000b', '\u0000',
  '\u200b', '\ufeff', '\u202e', '\u00ad', '\u200d', '\ud800', '\udc00', '\uffff', '\u{10fffe}',
  '@article{x,', '},\n  title = {', '}\n@misc{y,', '\nER  - \nTY  - JOUR\n', 'ER  - ', 'AU  - ',
  ' and ', 'AND', 'others', '--', "''", '``', '!`', ',,',
  'é', 'e\u0301', 'Ł', 'ß', '张', '√', 'ℓ₁', '😀', '\\"o', '$x_1$', '\\textbf{', '"}', '<i>',
];

/** A string of hostile pieces and arbitrary code units. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_PIECES) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.join(''));

const hostileFields = fc.record({
  title: hostileText,
  authors: fc.array(fc.oneof(hostileText, fc.constantFrom('Ana Ruiz', 'Smith and Jones', 'Zoë Çelik')), { maxLength: 4 }),
  abstract: hostileText,
  keywords: fc.array(hostileText, { maxLength: 3 }),
  venue: fc.oneof(fc.constantFrom('', 'ICLR', 'arXiv', 'Nature', 'TMLR', 'EMNLP'), hostileText),
  status: fc.oneof(fc.constantFrom('', 'Oral', 'Poster', 'Withdrawn', 'Under review', 'Rejected', 'TOG Paper', 'Findings', 'Workshop'), hostileText),
  year: fc.option(fc.integer({ min: 1900, max: 2100 }), { nil: null }),
  published: fc.option(fc.oneof(fc.constantFrom('2024-02-29', '2024-13-45', '2024-01'), hostileText), { nil: undefined }),
  labels: fc.array(fc.oneof(fc.constantFrom('cs.LG', 'hep-th', 'stat.ML'), hostileText), { maxLength: 2 }),
  arxiv: fc.option(fc.oneof(fc.constantFrom('2401.01234', 'hep-th/9901001', '2401.01234v2'), hostileText), { nil: undefined }),
  doi: fc.option(fc.oneof(fc.constantFrom('10.1000/x{y}\\z', '10.1145/3197517.3201400'), hostileText), { nil: undefined }),
  openreview: fc.option(fc.oneof(fc.constant('B11bwYgfM'), hostileText), { nil: undefined }),
  page: fc.option(fc.oneof(fc.constant('https://example.org/a?b=c%20{d}\\e'), hostileText.map((t) => `https://x.org/${t}`)), { nil: undefined }),
});

/** One to four hostile papers with distinct ids. */
export const hostilePapers: fc.Arbitrary<Paper[]> = fc.array(hostileFields, { minLength: 1, maxLength: 4 }).map((list) =>
  list.map(({ arxiv, doi, openreview, page, published, ...fields }, i) =>
    rawPaper({
      id: `p${i}`,
      ...fields,
      ...(published !== undefined && { published }),
      links: page === undefined ? {} : { page },
      externalIds: {
        ...(arxiv !== undefined && { arxiv }),
        ...(doi !== undefined && { doi }),
        ...(openreview !== undefined && { openreview }),
      },
    }),
  ),
);
