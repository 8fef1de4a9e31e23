/**
 * Who may change what a channel has set up for everyone in it: its digests (`/digest`) and
 * whether its archive records the links shared there (`/library archive`). One rule for both:
 * - Discord: members with Manage Channels in the channel (the permission Discord also shows
 *   `/digest` to; it cannot hide a single subcommand, so `/library archive` checks here);
 * - Slack, which tells a command of no such permission: workspace admins and owners (asked
 *   afresh, not from the cache), and whoever set the thing up; anyone may set up something new;
 * - the terminal, one operator's own: anyone.
 */
import type { CommandContext } from './types.js';

/** Why a member may not change a channel's setting: the permission Discord asks for, or Slack's rule. */
export type ChannelSettingRefusal = 'needs-manage-channels' | 'needs-admin';

/**
 * Whether the member may change a standing setting of the channel: `existing` is the setting as
 * set up (`setBy`: who did, unset when nobody did or they were forgotten), undefined for a new one.
 * @example channelSettingRefusal(ctx, { setBy: sub.createdBy }) // 'needs-admin' for another Slack member
 */
export function channelSettingRefusal(
  ctx: Pick<CommandContext, 'platform' | 'member' | 'user'>,
  existing: { setBy: string | undefined } | undefined,
): ChannelSettingRefusal | undefined {
  if (ctx.platform === 'discord') return ctx.member?.canManageChannel === true ? undefined : 'needs-manage-channels';
  if (ctx.platform === 'slack' && existing && ctx.member?.isAdmin !== true && existing.setBy !== ctx.user.id) return 'needs-admin';
  return undefined;
}
