/**
 * /paper <query>: search by title, author or keywords, page through the results, open one.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { MAX_QUERY_LENGTH } from '../search/query.js';
import { parsePaperRef } from '../papers/ids.js';
import { shorten } from '../text.js';
import { showLookedUp, showPage, showPaper, startSearch } from './results.js';
import { MAX_CHOICE_LENGTH, defineCommand } from './types.js';

/** The value an autocomplete choice submits: opens exactly that paper. */
const OPEN_PREFIX = 'doc:';

/**
 * Longest query taken. A longer one (a pasted abstract) is not refused: the search reads its
 * first {@link MAX_QUERY_LENGTH} characters and says so in a note. Past this, it is refused.
 */
export const MAX_QUERY_INPUT = 10 * MAX_QUERY_LENGTH;

const options = z.object({
  query: z
    .string()
    .trim()
    .min(1, 'paper.queryEmpty')
    .max(MAX_QUERY_INPUT, 'paper.queryTooLong')
    .meta({ autocomplete: true }),
});

export const paperCommand = defineCommand({
  name: 'paper',
  options,
  fromText: (text) => ({ query: text }),
  async run(ctx, { query }) {
    const open = new RegExp(`^${OPEN_PREFIX}(\\d{1,12})$`).exec(query);
    if (open) return showPaper(ctx, Number(open[1]));
    const ref = parsePaperRef(query);
    // A paper named by an id or link that the library lacks is fetched, shown and kept.
    if (ref && ref.kind !== 'url' && ctx.lookup && !(await ctx.library.store.findByRef(ref))) return showLookedUp(ctx, ctx.lookup, ref);
    return startSearch(ctx, { query });
  },
  autocomplete(ctx, option, value) {
    if (option !== 'query' || value.trim().length < 2) return [];
    // Chinese terms suggest the titles their English reading finds.
    return ctx.library.suggest(ctx.library.readQuery(value).query, 25).map((s) => ({ name: shorten(s.title, MAX_CHOICE_LENGTH), value: `${OPEN_PREFIX}${s.storeDoc}` }));
  },
  actions: {
    page: (ctx, [stateId, page]) => showPage(ctx, required(stateId), integer(page)),
    // From a message the whole channel reads (a digest): the results open privately, for the
    // one who asked, instead of replacing that message.
    more: async (ctx, [stateId]) => ({ ...(await showPage(ctx, required(stateId), 0, { inClickersLanguage: true })), ephemeral: true }),
    open: (ctx, [doc, stateId, page]) =>
      showPaper(ctx, integer(doc), stateId !== undefined && page !== undefined ? { stateId, page: integer(page) } : undefined),
  },
});

function required(value: string | undefined): string {
  if (!value) throw new UserError('error.brokenButton');
  return value;
}

function integer(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new UserError('error.brokenButton');
  return n;
}
