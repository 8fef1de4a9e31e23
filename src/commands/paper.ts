/**
 * /paper <query>: search by title, author or keywords, page through the results, open one. An
 * identifier or link the library lacks is looked up first; a paper link shared in a conversation
 * unfurls as the paper's card. /paper like:<text>: related work for a pasted abstract or
 * paragraph, paged as a search is (a dialog takes the text where the platform has one).
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { translate } from '../i18n/index.js';
import { MAX_QUERY_LENGTH } from '../search/query.js';
import { parsePaperRef } from '../papers/ids.js';
import { resolveRef } from '../papers/resolve.js';
import { MAX_RELATED_TEXT } from '../search/meaning/related.js';
import { shorten } from '../text.js';
import { showLookedUp, showPage, showPaper, startSearch } from './results.js';
import type { Reply } from '../reply.js';
import type { StoredPaper } from '../store/papers.js';
import { MAX_CHOICE_LENGTH, defineCommand, type CommandContext } from './types.js';

/** The value an autocomplete choice submits: opens exactly that paper. */
const OPEN_PREFIX = 'doc:';
/** Links longer than this are never a paper's (and are not parsed). */
const MAX_LINK_LENGTH = 2000;

/**
 * Longest query taken. A longer one (a pasted abstract) is not refused: the search reads its
 * first {@link MAX_QUERY_LENGTH} characters and says so in a note. Past this, it is refused.
 */
export const MAX_QUERY_INPUT = 10 * MAX_QUERY_LENGTH;

/** A plain-text invocation that is related work: `like:` and the text (`like: "…"` too). */
const LIKE_TEXT = /^\s*like:\s*(?:"([\s\S]*)"\s*|([\s\S]*))$/i;

/** Text with something to read in it: a letter or a digit in any script. */
const READABLE = /[\p{L}\p{N}]/u;

// Both optional for Discord, where a command's options are separate boxes (either is given, not
// both); as text (Slack, the terminal), `like:` starts the text and everything after it is the
// pasted text. No length limit on `like`: a text longer than the search reads is cut with a note.
const options = z.object({
  query: z
    .string()
    .trim()
    .min(1, 'paper.queryEmpty')
    .max(MAX_QUERY_INPUT, 'paper.queryTooLong')
    .meta({ autocomplete: true })
    .optional(),
  like: z.string().trim().optional(),
});

export const paperCommand = defineCommand({
  name: 'paper',
  options,
  fromText(text) {
    const like = LIKE_TEXT.exec(text);
    return like ? { like: like[1] ?? like[2] ?? '' } : { query: text };
  },
  form: { option: 'like' },
  async run(ctx, { query, like }) {
    // Both given: the query would not narrow related work (it is not searched with it), and
    // answering one of them silently would answer a question that was not asked.
    if (like !== undefined && query !== undefined) throw new UserError('paper.likeAndQuery');
    if (like !== undefined) {
      if (!READABLE.test(like)) throw new UserError('paper.likeEmpty');
      // What the search reads, and a character more to say on every page that it was cut.
      return startSearch(ctx, { query: '', like: like.slice(0, MAX_RELATED_TEXT + 1) });
    }
    if (query === undefined) throw new UserError('paper.queryEmpty');
    const open = new RegExp(`^${OPEN_PREFIX}(\\d{1,12})$`).exec(query);
    if (open) return showPaper(ctx, Number(open[1]));
    const ref = parsePaperRef(query);
    // A paper named by an id or link that the library lacks is fetched, shown and kept; one it
    // holds (or cannot look up) is the search's first and only result.
    if (ref && ctx.lookup) {
      const resolved = await resolveRef(ref, { store: ctx.library.store, lookup: ctx.lookup });
      if (resolved.kind !== 'held' && resolved.kind !== 'unknown') return showLookedUp(ctx, resolved);
    }
    return startSearch(ctx, { query });
  },
  autocomplete(ctx, option, value) {
    if (option !== 'query' || value.trim().length < 2) return [];
    // Chinese terms suggest the titles their English reading finds.
    return ctx.library.suggest(ctx.library.readQuery(value).query, 25).map((s) => ({ name: shorten(s.title, MAX_CHOICE_LENGTH), value: `${OPEN_PREFIX}${s.storeDoc}` }));
  },
  async unfurl(ctx, link) {
    const ref = link.length <= MAX_LINK_LENGTH ? parsePaperRef(link) : undefined;
    if (!ref) return undefined;
    const resolved = await resolveRef(ref, { store: ctx.library.store, lookup: ctx.lookup });
    if (resolved.kind === 'held' || resolved.kind === 'found') return cardReply(ctx, resolved);
    if (resolved.kind !== 'unknown') {
      ctx.log.info({ url: link.slice(0, 200), outcome: resolved.kind, reason: translate('en', resolved.message) }, 'shared link names no paper we could find');
    }
    return undefined;
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

/** A paper's compact card, in the language of whoever shared its link. */
function cardReply(ctx: CommandContext, { paper, doc }: StoredPaper): Reply {
  const m = ctx.i18n;
  return { locale: m.locale, fallback: paper.title, blocks: [{ kind: 'paper', paper: ctx.library.card(paper, doc, { messages: m }) }] };
}

function required(value: string | undefined): string {
  if (!value) throw new UserError('error.brokenButton');
  return value;
}

function integer(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new UserError('error.brokenButton');
  return n;
}
