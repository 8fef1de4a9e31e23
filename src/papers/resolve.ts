/**
 * The one way a paper reference (an arXiv id, a DOI, an OpenReview forum, a paper's own page or
 * pdf URL, as `parsePaperRef` reads them) becomes a paper: the store's when it holds one, else,
 * given a {@link PaperLookup}, fetched from the service that knows the id and added. `/paper`,
 * the search box's whole-query identifiers and shared-link unfurls all go through here, so they
 * agree on what a reference names.
 */
import type { PaperLookup, LookupOutcome } from '../sources/lookup.js';
import type { PaperStore } from '../store/papers.js';
import type { PaperRef } from './ids.js';
import type { Paper } from './model.js';

/**
 * What a reference named: a paper the store held (`held`); one the lookup found (`found`, with
 * `added` when it was fetched now), or why it did not (`missing`, `failed`, with a message for
 * the user); or `unknown`: not held, and nothing to look it up with (no lookup was given, or the
 * reference is a URL, which no service can be asked about).
 */
export type RefResolution = { kind: 'held'; doc: number; paper: Paper } | { kind: 'unknown' } | LookupOutcome;

/**
 * The paper `ref` names: held → from the store; missing → fetched by `lookup` (when given).
 * Throws only what the store throws.
 * @example
 * const resolved = await resolveRef({ kind: 'arxiv', id: '1706.03762' }, { store, lookup });
 * if (resolved.kind === 'held' || resolved.kind === 'found') console.log(resolved.paper.title);
 */
export async function resolveRef(ref: PaperRef, from: { store: Pick<PaperStore, 'findByRef'>; lookup?: PaperLookup }): Promise<RefResolution> {
  const held = await from.store.findByRef(ref);
  if (held) return { kind: 'held', doc: held.doc, paper: held.paper };
  if (!from.lookup || ref.kind === 'url') return { kind: 'unknown' };
  return from.lookup.find(ref);
}
