/**
 * A search saved for the buttons of a results message. `/paper` and `/topic` save one with their
 * first page (Prev/Next redo it), and a digest saves one for its More button (which opens the
 * results privately); the buttons read it back, possibly in another process or after a restart,
 * and run the search again (it is fast): a search, or for `/paper like:` related work. One type
 * for the writers and the readers: it travels through the interaction-state store, which holds
 * any JSON.
 */
import type { Localized } from '../i18n/index.js';
import type { StateStore } from '../store/states.js';

/** What a results message needs to show any of its pages again. */
export interface SearchState {
  /** The search-box query; empty for related work. */
  query: string;
  /**
   * Related work (`/paper like:`): the pasted text, searched by meaning instead of `query`. As
   * much of it as is read, and one character more where it went on, so that every page says
   * it was cut: at most `MAX_RELATED_TEXT + 1` characters (about 30 kB of Chinese).
   */
  like?: string;
  /** Heading instead of "Papers for …" (topic pages, digests), in every language it has. */
  heading?: Localized | string;
  /** The language the message was written in (a locale tag). */
  locale?: string;
}

/**
 * Saves a search under a new id, or resolves undefined when the store has refused writes for a
 * long while (the caller then answers without buttons; see {@link StateStore.put}).
 * @example const id = await saveSearch(ctx.states, { query: 'diffusion', locale: 'en' }, ctx.now());
 */
export function saveSearch(states: Pick<StateStore, 'put'>, state: SearchState, now: Date): Promise<string | undefined> {
  return states.put(state, now);
}

/**
 * Saves a search under an id of the caller's choosing, replacing what was there: the same
 * digest's More button, however often it is rendered.
 * @example await saveSearchAt(states, 'dg-1-abc', { query: 'topic:"nlp" sort:new', locale: 'en' }, now)
 */
export function saveSearchAt(states: Pick<StateStore, 'putAt'>, id: string, state: SearchState, now: Date): Promise<string> {
  return states.putAt(id, state, now);
}

/**
 * The search saved under `id`, unless it has expired.
 * @example (await loadSearch(ctx.states, stateId, ctx.now()))?.query
 */
export function loadSearch(states: Pick<StateStore, 'get'>, id: string, now: Date): Promise<SearchState | undefined> {
  return states.get<SearchState>(id, now);
}
