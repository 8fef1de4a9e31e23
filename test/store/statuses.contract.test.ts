/**
 * The status upgrade on SQLite and PostgreSQL: a library written before statuses were put in one
 * vocabulary ("Reject", "Withdraw", "Active" as paperlists wrote them) is brought to it when
 * opened, once, under one generation, with the content hashes a new import of the same records
 * gives, so that importing them again changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PaperRecordSchema, type PaperRecord } from '../../src/papers/model.js';
import { STATUS_VERSION } from '../../src/papers/status.js';
import { STATUS_VERSION_KEY, type UpsertOptions } from '../../src/store/papers.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const options: UpsertOptions = { source: 'paperlists:iclr2018', classify: (p) => (p.title.includes('lane') ? ['robotics'] : []), now: new Date('2026-01-01T00:00:00.000Z') };

/** A paperlists record as a previous version stored it: the status as the listing wrote it (no schema in between). */
const raw = (id: string, title: string, status: string): PaperRecord => ({
  sourceKey: `iclr2018:${id}`,
  title,
  authors: ['Ann Lee'],
  abstract: '',
  venue: 'ICLR',
  year: 2018,
  status,
  keywords: [],
  labels: [],
  links: { page: `https://openreview.net/forum?id=${id}` },
  externalIds: { openreview: id },
});
const LISTING = [raw('B1G6uM0WG', 'Tactical lane changing', 'Withdraw'), raw('B12QlQWRW', 'Think visually', 'Active'), raw('Hk2aImxAb', 'Rejected idea', 'Reject'), raw('Sy2ogebAW', 'Kept poster', 'Poster')];

describe.each(BACKENDS)('status upgrade on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
  });
  afterEach(() => store.dispose());

  it('puts the statuses of a library written before in one vocabulary, once, under one generation', async () => {
    await a.papers.write((tx) => tx.upsertBatch(LISTING, options));
    const generation = await a.papers.generation();
    expect(await a.papers.upgradeStatuses()).toEqual({
      from: 0,
      to: STATUS_VERSION,
      papers: 3,
      renamed: [
        ['Active', 'Under review', 1],
        ['Reject', 'Rejected', 1],
        ['Withdraw', 'Withdrawn', 1],
      ],
    });
    expect(await a.papers.generation()).toBe(generation + 1);
    expect((await a.papers.rowsChanged(generation, generation + 1, 0, 10)).map((r) => [r.id, r.status])).toEqual([
      ['openreview:B1G6uM0WG', 'Withdrawn'],
      ['openreview:B12QlQWRW', 'Under review'],
      ['openreview:Hk2aImxAb', 'Rejected'],
    ]);
    expect(await a.papers.get('openreview:B1G6uM0WG')).toMatchObject({ status: 'Withdrawn', topics: ['robotics'] });
    expect(await a.papers.getMeta(STATUS_VERSION_KEY)).toBe(String(STATUS_VERSION));
    expect(await a.papers.upgradeStatuses()).toBeUndefined();
    // The listing imported again, through the schema as every import goes: nothing changes.
    const again = await a.papers.write((tx) => tx.upsertBatch(LISTING.map((r) => PaperRecordSchema.parse(r)), options));
    expect(again.map((r) => 'outcome' in r && r.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(await a.papers.generation()).toBe(generation + 1);
    expect(await a.papers.statusCounts()).toEqual([
      ['Poster', 1],
      ['Rejected', 1],
      ['Under review', 1],
      ['Withdrawn', 1],
    ]);
  });

  it('stamps a library whose statuses are current, and leaves one a newer version wrote alone', async () => {
    expect(await a.papers.upgradeStatuses()).toBeUndefined();
    expect(await a.papers.getMeta(STATUS_VERSION_KEY)).toBe(String(STATUS_VERSION));
    await a.papers.setMeta(STATUS_VERSION_KEY, String(STATUS_VERSION + 1));
    await a.papers.write((tx) => tx.upsertBatch(LISTING, options));
    expect(await a.papers.upgradeStatuses()).toBeUndefined();
    expect((await a.papers.get('openreview:B1G6uM0WG'))!.status).toBe('Withdraw');
  });
});
