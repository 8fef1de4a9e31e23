/**
 * A channel's archive: the papers whose links were posted in it, with who shared each and when.
 * Adapters hand over the links of a message they saw (Slack's `link_shared` and `message`
 * events, Discord messages where the bot may read their content); links that name a paper
 * (arXiv, DOI, OpenReview, a paper's own page) are recorded, the rest ignored. A paper the
 * library lacks is looked up as `/paper` does. The same message seen twice is one share.
 */
import { parsePaperRef } from '../papers/ids.js';
import { resolveRef } from '../papers/resolve.js';
import { personOf, teamOf } from './lists.js';
import type { CommandContext } from './types.js';

/** Links of one message looked at, at most (a message pasting a bibliography is not an archive). */
export const MAX_LINKS_PER_MESSAGE = 10;

/**
 * Records the papers `links` name as shared by `ctx.user` in `ctx.channel`, in the message
 * `message` (a platform id). Resolves how many shares were new. Nothing is recorded outside
 * channels, or where the channel turned its archive off.
 * @example await recordShares(ctx, ['https://arxiv.org/abs/1706.03762'], 'C01:1733212800.000100')
 */
export async function recordShares(ctx: CommandContext, links: readonly string[], message: string): Promise<number> {
  const channel = ctx.channel;
  if (ctx.platform === 'terminal' || !channel || channel.kind === 'dm' || channel.kind === 'group-dm') return 0;
  const refs = [...new Set(links)].slice(0, MAX_LINKS_PER_MESSAGE).flatMap((link) => parsePaperRef(link) ?? []);
  if (refs.length === 0) return 0;
  const team = teamOf(ctx);
  if (!(await ctx.readingLists.archiveSetting(ctx.platform, team, channel.id)).on) return 0;
  const at = ctx.now();
  const by = personOf(ctx);
  let recorded = 0;
  const seen = new Set<string>();
  for (const ref of refs) {
    const resolved = await resolveRef(ref, { store: ctx.library.store, ...(ctx.lookup && { lookup: ctx.lookup }) });
    if (resolved.kind !== 'held' && resolved.kind !== 'found') continue;
    if (seen.has(resolved.paper.id)) continue;
    seen.add(resolved.paper.id);
    if (await ctx.readingLists.recordShare(ctx.platform, team, channel.id, { paperId: resolved.paper.id, by, at, message })) recorded++;
  }
  return recorded;
}
