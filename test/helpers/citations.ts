/**
 * Citations for the test library, as `sync openalex` would leave them (put through the real
 * citation store): the fixture papers matched to OpenAlex works, with counts and the works they
 * reference. "Attention Is All You Need" references six library papers and is cited by seven,
 * the hostile fixture paper among them (so its markup reaches every list of an opened paper);
 * one paper has a known count of 0; every other paper has none.
 */
import type { App } from '../../src/app.js';
import type { CitationEntry } from '../../src/store/citations.js';

/** The OpenAlex work of "Attention Is All You Need". */
export const ATTENTION_WORK = 'W2963403868';

/** The hostile fixture paper (`@everyone <b>Markdown</b> …`) and "Graph Attention Networks for Robot Navigation". */
export const HOSTILE_ID = 't:9934bfea16906d2c';
export const ZERO_ID = 't:8050dc938417b904';

/** A fixture paper by id, its work, count and the papers (by id) it references. */
const GRAPH: ReadonlyArray<[id: string, work: number, count: number, references: readonly string[]]> = [
  ['arxiv:1706.03762', 2963403868, 123456, ['arxiv:1512.03385', 'arxiv:1412.6980', 'arxiv:1409.0473', 't:b7b8a0674c450055', 't:f78eb910665a613a', 'openreview:Sy8gdB9xx']],
  ['arxiv:1512.03385', 2194775991, 201234, []],
  ['arxiv:1412.6980', 1522301498, 170000, []],
  ['arxiv:1409.0473', 2133564696, 38000, []],
  ['t:b7b8a0674c450055', 2132339004, 12000, []],
  ['t:f78eb910665a613a', 2072128103, 9000, []],
  ['openreview:Sy8gdB9xx', 2566079294, 6000, []],
  ['arxiv:1810.04805', 2896457183, 95000, ['arxiv:1706.03762']],
  ['openreview:SkeHuCVFDr', 2995435108, 3000, ['arxiv:1706.03762', 'arxiv:1810.04805']],
  ['arxiv:2212.09748', 4311991106, 2500, ['arxiv:1706.03762', 'arxiv:2006.11239']],
  ['arxiv:2005.14165', 3030163527, 35000, ['arxiv:1706.03762', 'arxiv:1810.04805', 'arxiv:1412.6980']],
  ['arxiv:2203.02155', 4226082499, 9000, ['arxiv:1706.03762', 'arxiv:2005.14165']],
  ['arxiv:1710.10903', 2766453196, 11000, ['arxiv:1706.03762', 'arxiv:1609.02907']],
  ['arxiv:2006.11239', 3100572490, 15000, []],
  // The hostile fixture paper, among the five most cited papers citing Attention; and a paper OpenAlex knows that no work cites.
  [HOSTILE_ID, 4400000001, 50000, ['arxiv:1706.03762']],
  [ZERO_ID, 4400000002, 0, []],
];

/**
 * Puts the fixture's citations into `app`'s store (each paper also references a work outside
 * the library, as most do), and returns the document numbers by paper id.
 * @example const docs = await putFixtureCitations(app);
 */
export async function putFixtureCitations(app: Pick<App, 'stores' | 'library'>): Promise<Map<string, number>> {
  const fetched = new Date('2026-03-01T00:00:00Z');
  const ids = GRAPH.map(([id]) => id);
  const held = await app.library.papersByIds(ids);
  const docs = new Map([...held].map(([id, p]) => [id, p.doc]));
  const missing = ids.filter((id) => !docs.has(id));
  if (missing.length > 0) throw new Error(`the fixture library lacks ${missing.join(', ')}`);
  const work = new Map(GRAPH.map(([id, w]) => [id, `W${w}`]));
  const entries: CitationEntry[] = GRAPH.map(([id, w, count, refs]) => ({ doc: docs.get(id)!, openalex: `W${w}`, count, fetched, references: [...refs.map((r) => work.get(r) ?? 'W999999998'), 'W999999999'] }));
  const written = await app.stores.citations.put(entries);
  if (written.refused.length > 0) throw new Error(`citations refused: ${JSON.stringify(written.refused)}`);
  await app.library.refresh();
  return docs;
}
