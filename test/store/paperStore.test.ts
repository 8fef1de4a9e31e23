import { describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/papers/model.js';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { PaperStore } from '../../src/store/paperStore.js';

const record = (over: Partial<PaperRecord>): PaperRecord => ({
  title: 'Prototypical Networks for Few-shot Learning',
  authors: ['Jake Snell', 'Kevin Swersky', 'Richard Zemel'],
  abstract: 'Prototypes in an embedding space.',
  venue: '',
  year: null,
  status: '',
  keywords: [],
  labels: [],
  links: {},
  externalIds: {},
  ...over,
});

function put(store: PaperStore, r: PaperRecord, source: string) {
  return store.transaction(() => store.upsert(r, store.beginGeneration(), { source, classify: () => [], now: new Date('2026-01-01') }));
}

describe('PaperStore merges', () => {
  it('lets a venue record take over an arXiv preprint, and stays put on re-ingest', () => {
    const store = new PaperStore(openDatabase(':memory:'));
    const preprint = record({ venue: 'arXiv', year: 2017, externalIds: { arxiv: '1703.05175' } });
    const venue = record({ venue: 'NeurIPS', year: 2017, status: 'Poster', sourceKey: 'nips2017:1' });
    expect(put(store, preprint, 'arxiv').outcome).toBe('added');
    expect(put(store, venue, 'paperlists:nips2017')).toMatchObject({ outcome: 'updated', id: 'arxiv:1703.05175' });
    expect(store.get('arxiv:1703.05175')).toMatchObject({ venue: 'NeurIPS', status: 'Poster' });
    expect(put(store, preprint, 'arxiv').outcome).toBe('unchanged');
    expect(put(store, venue, 'paperlists:nips2017').outcome).toBe('unchanged');
    expect(store.count()).toBe(1);
  });

  it('lets an acceptance supersede a rejection elsewhere, in either order', () => {
    for (const order of [0, 1]) {
      const store = new PaperStore(openDatabase(':memory:'));
      const rejected = record({ venue: 'ICLR', year: 2017, status: 'Reject', externalIds: { openreview: 'B1-Hhnslg' } });
      const accepted = record({ venue: 'NeurIPS', year: 2017, status: 'Poster', sourceKey: 'nips2017:2' });
      const [a, b] = order === 0 ? [rejected, accepted] : [accepted, rejected];
      put(store, a, `src${a.venue}`);
      put(store, b, `src${b.venue}`);
      put(store, a, `src${a.venue}`);
      expect(put(store, b, `src${b.venue}`).outcome).toBe('unchanged');
      expect(store.count()).toBe(1);
      const paper = store.getByDoc(1);
      expect(paper).toMatchObject({ venue: 'NeurIPS', status: 'Poster' });
      expect(paper!.externalIds.openreview).toBe('B1-Hhnslg');
    }
  });

  it('finds a paper by any of its identifiers and links', () => {
    const store = new PaperStore(openDatabase(':memory:'));
    put(store, record({ externalIds: { arxiv: '1703.05175', doi: '10.5555/1' }, links: { page: 'https://Example.org/papers/proto/' } }), 's');
    for (const ref of [
      { kind: 'arxiv', id: '1703.05175' },
      { kind: 'doi', id: '10.5555/1' },
      { kind: 'url', id: 'example.org/papers/proto' },
    ] as const) {
      expect(store.findByRef(ref)?.id).toBe('arxiv:1703.05175');
    }
    expect(store.findByTitle('prototypical networks for few shot learning', 'J. Snell')?.id).toBe('arxiv:1703.05175');
  });
});
