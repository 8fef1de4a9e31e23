/**
 * Harvest state: where a long fetch from a source stands (an OAI-PMH resumption token and the
 * last datestamp fully stored, an OpenReview venue's last sync), so that a killed harvest picks
 * up where it stopped and a schedule knows what is due. State is JSON the source defines. Two
 * implementations, SQLite (`sqlite/harvests.ts`) and PostgreSQL (`postgres/harvests.ts`), held to
 * this interface by the contract suite (`test/store/harvests.contract.test.ts`). A state that
 * describes a page of papers is written with the page, in the paper store's transaction
 * (`PaperWriter.putHarvest`); this interface reads states and writes those that stand alone.
 */

export interface HarvestRecord<T = unknown> {
  key: string;
  /** The source that owns the state: `arxiv-oai`, `openreview`. */
  source: string;
  state: T;
  /** When the state was last written (ISO 8601). */
  updatedAt: string;
}

export interface HarvestStore {
  get<T>(key: string): Promise<HarvestRecord<T> | undefined>;
  /** Writes the state on its own (a harvest's end, a venue's last sync). */
  put(key: string, source: string, state: unknown, now: Date): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every state a source keeps (all sources when omitted), oldest update first. */
  list(source?: string): Promise<HarvestRecord[]>;
}

/** A harvest row as both stores keep it: the state as JSON text. */
export interface HarvestRow {
  key: string;
  source: string;
  state: string;
  updated_at: string;
}

export function toHarvestRecord<T>(row: HarvestRow): HarvestRecord<T> {
  return { key: row.key, source: row.source, state: JSON.parse(row.state) as T, updatedAt: row.updated_at };
}
