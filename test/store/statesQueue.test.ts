/**
 * The state store's queue while the store refuses writes: bounded by the characters it holds as
 * well as by the count, since related work saves a pasted text of up to 10,000 characters.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PENDING_CHARS, QueuedStateStore, type StateRow, type StateRows } from '../../src/store/states.js';
import { MAX_RELATED_TEXT } from '../../src/search/meaning/related.js';

/** Rows in memory that refuse every write while `refusing`. */
function rowsThat(state: { refusing: boolean }): StateRows & { rows: Map<string, StateRow> } {
  const rows = new Map<string, StateRow>();
  return {
    rows,
    write: async (batch) => {
      if (state.refusing) return false;
      for (const row of batch) rows.set(row.id, row);
      return true;
    },
    read: async (id) => rows.get(id)?.data,
    purge: async () => 0,
  };
}

const now = new Date('2026-03-01T00:00:00Z');
/** Related work's state at its largest: a pasted Chinese text as long as the search reads. */
const related = { query: '', like: '扩散'.repeat(MAX_RELATED_TEXT / 2 + 1).slice(0, MAX_RELATED_TEXT + 1), locale: 'zh-CN' };

describe('the state queue', () => {
  it('stops taking saves once the characters queued would pass the limit, and takes them again once written', async () => {
    const store = { refusing: true };
    const rows = rowsThat(store);
    const size = JSON.stringify(related).length;
    const states = new QueuedStateStore(rows, { maxPendingChars: 3 * size + 100 });
    const ids = [await states.put(related, now), await states.put(related, now), await states.put(related, now)];
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    // Three are far under the count limit, but a fourth would pass the characters'.
    expect(await states.put(related, now)).toBeUndefined();
    expect(states.pendingCount).toBe(3);
    // A small state still fits, and every queued one reads back.
    expect(await states.put({ query: 'diffusion' }, now)).toBeDefined();
    expect(await states.get(ids[0]!, now)).toEqual(related);

    store.refusing = false;
    expect(await states.flush()).toBe(0);
    expect(rows.rows.size).toBe(4);
    expect(await states.put(related, now)).toBeDefined();
  });

  it('counts a name saved again once', async () => {
    const store = { refusing: true };
    const size = JSON.stringify(related).length;
    const states = new QueuedStateStore(rowsThat(store), { maxPendingChars: 2 * size + 10 });
    for (let i = 0; i < 5; i++) await states.putAt('dg-1', related, now);
    expect(await states.put(related, now)).toBeDefined();
  });

  it('holds at most 16 MB by default', () => {
    expect(MAX_PENDING_CHARS * 2).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
