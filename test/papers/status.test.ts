/**
 * The status vocabulary: every status word of the paperlists corpus and every decision the
 * OpenReview mapper gives has one canonical spelling and a label in each catalog.
 */
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/catalog/en.js';
import { messages } from '../../src/i18n/index.js';
import { PaperRecordSchema } from '../../src/papers/model.js';
import { STATUS_KEYS, canonicalStatus, statusKey } from '../../src/papers/status.js';
import { DECISIONS } from '../../src/sources/openreview/record.js';
import { mapPaperlists } from '../../src/ingest/formats/paperlists.js';

/** Every status the paperlists corpus holds (246 files), with the number of records, and what it is stored as. */
const CORPUS: Array<[string, number, string]> = [
  ['Poster', 78259, 'Poster'],
  ['Technical Paper', 3706, 'Technical Paper'],
  ['Oral', 3210, 'Oral'],
  ['Long', 2580, 'Long'],
  ['Main', 1999, 'Main'],
  ['Technical', 1319, 'Technical'],
  ['Findings', 826, 'Findings'],
  ['Spotlight', 788, 'Spotlight'],
  ['Reject', 753, 'Rejected'],
  ['Short', 311, 'Short'],
  ['TOG Paper', 269, 'TOG Paper'],
  ['Industry', 213, 'Industry'],
  ['Workshop', 137, 'Workshop'],
  ['System Demonstrations', 90, 'System Demonstrations'],
  ['Withdraw', 69, 'Withdrawn'],
  ['Poster Workshop', 25, 'Poster Workshop'],
  ['Oral Workshop', 7, 'Oral Workshop'],
  ['Active', 3, 'Under review'],
];

describe('canonicalStatus', () => {
  it.each(CORPUS)('stores the corpus status %j (%i records) as %j, which has a label', (raw, _, stored) => {
    expect(canonicalStatus(raw)).toBe(stored);
    expect(statusKey(stored)).toBeDefined();
  });

  it("keeps OpenReview's decisions as they are", () => {
    for (const decision of DECISIONS) expect(canonicalStatus(decision)).toBe(decision);
    expect(DECISIONS.every((d) => statusKey(d) !== undefined)).toBe(true);
  });

  it.each([
    ['reject', 'Rejected'],
    ['REJECTED', 'Rejected'],
    ['Desk Reject', 'Desk Rejected'],
    ['withdrawn', 'Withdrawn'],
    ['Accept (Oral)', 'Oral'],
    ['Accept: poster', 'Poster'],
    ['accept', 'Accepted'],
    ['under  review', 'Under review'],
    ['Submitted', 'Under review'],
    ['Best Paper Award', 'Best Paper Award'],
    ['  Journal   Track ', 'Journal Track'],
    ['', ''],
  ])('reads %j as %j', (raw, stored) => {
    expect(canonicalStatus(raw)).toBe(stored);
  });

  it('is idempotent', () => {
    for (const raw of [...CORPUS.map((c) => c[0]), 'Accept (Spotlight)', 'desk-rejected submission', 'Best Paper']) {
      expect(canonicalStatus(canonicalStatus(raw))).toBe(canonicalStatus(raw));
    }
  });

  it('is applied to every record, whichever mapper made it', () => {
    const mapped = mapPaperlists({ id: 'B1G6uM0WG', title: 'Tactical Decision Making', author: 'M. Mukadam', status: 'Withdraw' }, { venueCode: 'iclr', year: 2018 });
    expect(mapped).toMatchObject({ ok: true, record: { status: 'Withdrawn' } });
    expect(PaperRecordSchema.parse({ title: 'T', authors: [], status: 'Active' }).status).toBe('Under review');
  });
});

describe('statusKey', () => {
  it('names a catalog message for every canonical status, shown in the reader’s language', () => {
    for (const key of Object.values(STATUS_KEYS)) expect(Object.hasOwn(en, key)).toBe(true);
    expect(messages('en').t(statusKey('Withdrawn')!)).toBe('Withdrawn');
    expect(messages('zh-CN').t(statusKey('Withdrawn')!)).toBe('已撤稿');
    expect(messages('zh-CN').t(statusKey('Under review')!)).toBe('审稿中');
    expect(statusKey('Best Paper Award')).toBeUndefined();
  });
});
