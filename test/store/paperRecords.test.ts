/**
 * The stored row of a paper and its content hash. A library keeps the hash each paper was
 * written with, and an import compares against it: if the same record hashed differently after
 * an upgrade, re-ingesting an unchanged library would rewrite every paper as "updated". The
 * hashes below were made by the code that wrote the first libraries.
 */
import { describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/papers/model.js';
import { aliasesOf, planUpserts, prepareRecord, toColumns, type PaperWrite } from '../../src/store/paperRecords.js';

const RECORD: PaperRecord = {
  sourceKey: 'demo:1',
  title: 'Graph Nets for "Quoted" Things',
  authors: ['Ada Lovelace', 'Émile Noether'],
  abstract: 'We study graphs.\nTwo lines.',
  venue: 'ICML',
  year: 2024,
  status: 'Poster',
  keywords: ['graphs'],
  labels: ['cs.LG'],
  // Out of order: the row lists them by name.
  links: { pdf: 'https://example.org/p.pdf', page: 'https://example.org/p' },
  externalIds: { doi: '10.1/x', arxiv: '2401.00001' },
  published: '2024-01-02',
};

describe('toColumns', () => {
  it('stores lists as JSON, links and identifiers by name, and the hash the first libraries stored', () => {
    const columns = toColumns('arxiv:2401.00001', RECORD, ['deep-learning/graph-neural-networks']);
    expect(columns).toEqual({
      id: 'arxiv:2401.00001',
      title: 'Graph Nets for "Quoted" Things',
      authors: '["Ada Lovelace","Émile Noether"]',
      abstract: 'We study graphs.\nTwo lines.',
      venue: 'ICML',
      year: 2024,
      status: 'Poster',
      topics: '["deep-learning/graph-neural-networks"]',
      keywords: '["graphs"]',
      labels: '["cs.LG"]',
      links: '{"page":"https://example.org/p","pdf":"https://example.org/p.pdf"}',
      external_ids: '{"arxiv":"2401.00001","doi":"10.1/x"}',
      published: '2024-01-02',
      tldr: null,
      content_hash: '5f444203f6f685c94cdcd2865d676f85d1fe2483',
    });
  });

  it('hashes a TL;DR only when the paper has one', () => {
    const columns = toColumns('arxiv:2401.00001', { ...RECORD, tldr: 'Graphs, briefly.' }, []);
    expect(columns.tldr).toBe('Graphs, briefly.');
    expect(columns.content_hash).toBe('91a22a086befc813308957b935830070c43e1fdd');
  });

  it('hashes a TL;DR with quotes, a backslash and a line separator as the first libraries did', () => {
    const record: PaperRecord = { title: 'T', authors: ['A'], abstract: '', venue: '', year: null, status: '', keywords: [], labels: [], links: {}, externalIds: {} };
    const columns = toColumns('k:1', { ...record, tldr: 'A "quoted" \\ back\u2028slash, naïve — ok' }, []);
    expect(columns.content_hash).toBe('af1c3f8ad3dfbf5abe0f1f8c128ccf9cbbc17dbe');
  });

  it('gives a record with nothing but a title the id and hash it always had', () => {
    const bare: PaperRecord = { title: 'Bare', authors: [], abstract: '', venue: '', year: null, status: '', keywords: [], labels: [], links: {}, externalIds: {} };
    const prepared = prepareRecord(bare, []);
    expect(prepared.id).toBe('t:ed0080ba01cff598');
    expect(prepared.columns).toMatchObject({ links: '{}', external_ids: '{}', published: null, tldr: null, content_hash: '938f2c74159b3b35ebf8c6cc149efa4f134f6f41' });
  });
});

describe('planUpserts', () => {
  const ID = 'arxiv:2401.00001';
  const NOW = new Date('2026-01-02T03:04:05Z');
  /** Plans one record against a library holding RECORD, with topics ahead and a counting classifier. */
  function plan(record: PaperRecord) {
    const stored: PaperWrite = { ...toColumns(ID, RECORD, ['stored']), source: 'demo', first_seen: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' };
    const owners = new Map(aliasesOf(RECORD).map((alias) => [alias, ID]));
    const classified: PaperRecord[] = [];
    const result = planUpserts([record], [aliasesOf(record)], owners, new Map([[ID, stored]]), {
      source: 'demo',
      now: NOW,
      classify: (paper) => (classified.push(paper as PaperRecord), ['classified']),
      prepared: (r) => prepareRecord(r, ['ahead']),
    });
    return { result, classified };
  }

  it('gives a record read again the topics worked out ahead, without classifying it again', () => {
    const { result, classified } = plan({ ...RECORD });
    expect(classified).toEqual([]);
    expect(result.updates.map((row) => row.topics)).toEqual(['["ahead"]']);
  });

  it('classifies the merged paper when the merge changes what the topics come from', () => {
    // The keywords are united with the stored ones: the merged paper is not the record.
    const { result, classified } = plan({ ...RECORD, keywords: ['message passing'] });
    expect(classified.map((p) => p.keywords)).toEqual([['graphs', 'message passing']]);
    expect(result.updates.map((row) => row.topics)).toEqual(['["classified"]']);
  });
});
