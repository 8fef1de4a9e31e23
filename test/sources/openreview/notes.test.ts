/**
 * OpenReview's `GET /notes` parser and the mapping of submissions to papers, on hand-written
 * pages in API v2's format and on hostile input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OpenReviewPageError, parseNotesPage } from '../../../src/sources/openreview/notes.js';
import { decisionOf, noteToRecord, venueOf } from '../../../src/sources/openreview/record.js';
import { openreviewFixture } from './helpers.js';

describe('parseNotesPage', () => {
  it('reads the fields under content.<name>.value, and the count', () => {
    const page = parseNotesPage(openreviewFixture('iclr2025-offset-0.json'));
    expect(page).toMatchObject({ count: 7, size: 3, problems: [] });
    expect(page.notes[0]).toEqual({
      id: 'Kx7vQ2mN9a',
      forum: 'Kx7vQ2mN9a',
      number: 11,
      title: 'Scaling Laws for Sparse Mixture-of-Experts Language Models',
      authors: ['Ana Ruiz', 'Mei Lin'],
      abstract: 'We fit scaling laws for sparse mixture-of-experts language models across three orders of magnitude.',
      keywords: ['mixture of experts', 'scaling laws', 'language models'],
      tldr: 'Sparse experts follow the same scaling laws as dense models once routing is accounted for.',
      primaryArea: 'foundation or frontier models, including LLMs',
      venue: 'ICLR 2025 Oral',
      venueid: 'ICLR.cc/2025/Conference',
      pdf: expect.stringMatching(/^\/pdf\/[0-9a-f]{40}\.pdf$/),
      invitations: ['ICLR.cc/2025/Conference/-/Submission', 'ICLR.cc/2025/Conference/-/Post_Submission', 'ICLR.cc/2025/Conference/Submission11/-/Revision'],
      domain: 'ICLR.cc/2025/Conference',
      pdate: 1737936000000,
      odate: 1728000000000,
      cdate: 1727366411000,
    });
  });

  it('reports unreadable notes by their place and id, and keeps the others', () => {
    expect(parseNotesPage(openreviewFixture('iclr2025-offset-3.json')).problems).toEqual([{ index: 0, id: 'Zz9yX8wV7u', reason: 'no title' }]);
    expect(parseNotesPage(openreviewFixture('iclr2025-offset-6.json')).problems).toEqual([{ index: 0, id: 'Hh1gG2fF3e', reason: 'no content (the submission is not public?)' }]);
    expect(parseNotesPage('{"notes":[42,{"content":{}},{"id":"a b"}]}').problems).toEqual([
      { index: 0, reason: 'expected a note object, got number' },
      { index: 1, reason: 'no note id' },
      { index: 2, reason: 'no note id' },
    ]);
  });

  it('refuses what is not an answer of GET /notes', () => {
    expect(() => parseNotesPage('<html>Bad gateway</html>')).toThrow(/^expected JSON from OpenReview, got "<html>Bad gateway<\/html>"/);
    expect(() => parseNotesPage('{"name":"NotFoundError"}')).toThrow('expected {"notes": [...]} from OpenReview, got an object with "name"');
    expect(() => parseNotesPage('[]')).toThrow(OpenReviewPageError);
  });

  it('throws nothing but OpenReviewPageError on hostile bodies', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ notes: [v] }))), (body) => {
        try {
          parseNotesPage(body);
        } catch (error) {
          expect(error).toBeInstanceOf(OpenReviewPageError);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('decisionOf', () => {
  it.each([
    ['ICLR.cc/2025/Conference', 'ICLR 2025 Oral', 'Oral'],
    ['ICLR.cc/2025/Conference', 'ICLR 2025 Spotlight', 'Spotlight'],
    ['ICLR.cc/2025/Conference', 'ICLR 2025 Poster', 'Poster'],
    ['NeurIPS.cc/2024/Conference', 'NeurIPS 2024 poster', 'Poster'],
    ['NeurIPS.cc/2024/Datasets_and_Benchmarks_Track', 'NeurIPS 2024 Datasets and Benchmarks Track Oral', 'Oral'],
    ['TMLR', 'TMLR', 'Accepted'],
    ['ICLR.cc/2025/Conference/Rejected_Submission', 'Submitted to ICLR 2025', 'Rejected'],
    ['ICLR.cc/2025/Conference/Withdrawn_Submission', 'ICLR 2025 Conference Withdrawn Submission', 'Withdrawn'],
    ['ICLR.cc/2025/Conference/Desk_Rejected_Submission', 'ICLR 2025 Conference Desk Rejected Submission', 'Desk Rejected'],
    ['ICLR.cc/2025/Conference/Submission', 'Submitted to ICLR 2025', 'Under review'],
    [undefined, undefined, 'Under review'],
    [undefined, 'ICML 2024 Oral', 'Oral'],
  ])('%s, "%s" → %s', (venueid, venue, decision) => {
    expect(decisionOf({ ...(venueid && { venueid }), ...(venue && { venue }) })).toBe(decision);
  });
});

describe('venueOf', () => {
  it.each([
    ['ICLR.cc/2025/Conference', 'ICLR', 2025],
    ['NeurIPS.cc/2024/Conference', 'NeurIPS', 2024],
    ['ICML.cc/2024/Conference', 'ICML', 2024],
    ['thecvf.com/ECCV/2024/Conference', 'ECCV', 2024],
    ['colmweb.org/COLM/2024/Conference', 'COLM', 2024],
    ['TMLR', 'TMLR', null],
  ])('%s is %s %s', (id, name, year) => {
    expect(venueOf(id)).toEqual({ name, year });
  });
});

describe('noteToRecord', () => {
  it('maps a submission: venue and year from the venue id, decision as status, forum and pdf links, TL;DR, primary area as label', () => {
    const [note] = parseNotesPage(openreviewFixture('iclr2025-offset-0.json')).notes;
    const mapped = noteToRecord(note!, 'ICLR.cc/2025/Conference');
    expect(mapped).toEqual({
      ok: true,
      record: expect.objectContaining({
        venue: 'ICLR',
        year: 2025,
        status: 'Oral',
        labels: ['foundation or frontier models, including LLMs'],
        keywords: ['mixture of experts', 'scaling laws', 'language models'],
        tldr: 'Sparse experts follow the same scaling laws as dense models once routing is accounted for.',
        externalIds: { openreview: 'Kx7vQ2mN9a' },
        links: { page: 'https://openreview.net/forum?id=Kx7vQ2mN9a', pdf: expect.stringMatching(/^https:\/\/openreview\.net\/pdf\/[0-9a-f]{40}\.pdf$/) },
        published: '2025-01-27',
      }),
    });
  });

  it('keeps a rejected submission at its venue with the status Rejected, never as accepted', () => {
    const rejected = parseNotesPage(openreviewFixture('iclr2025-offset-3.json')).notes[0]!;
    expect(noteToRecord(rejected)).toMatchObject({ ok: true, record: { venue: 'ICLR', year: 2025, status: 'Rejected' } });
  });
});
