/**
 * What Slack says about the member behind a request (users.info with `include_locale`, the
 * users:read scope): their language, their time zone (the default for a new digest), and
 * whether they are a workspace admin or owner (who may change any digest). Answers are cached
 * briefly per workspace and user (a member's id may be the same in several workspaces of an
 * Enterprise Grid org, with another role in each), so a burst of commands costs one call; a
 * digest change asks afresh.
 */
import type { webApi } from '@slack/bolt';
import type { App } from '../../src/app.js';

export interface SlackMember {
  isAdmin: boolean;
  timezone?: string;
  /** The user's Slack language, e.g. `en-US`, `zh-CN`, `zh-TW`. */
  locale?: string;
  /** The name the workspace shows for them (display name, else real name, else handle). */
  name?: string;
}

/** How long an answer of users.info is reused. */
export const MEMBER_CACHE_MS = 5 * 60_000;
/** Users remembered at most (the oldest is forgotten first). */
const MEMBER_CACHE_MAX = 5000;

const cache = new Map<string, { member: SlackMember; at: number }>();

/**
 * The member's language, zone and role in workspace `team`; `fresh` skips the cache (permission
 * checks). Without an answer, the user is treated as a member in UTC whose language is unknown
 * (English).
 * @example const member = await memberInfo(client, 'U123', app, { team: 'T01' });
 */
export async function memberInfo(client: webApi.WebClient, user: string, app: App, options: { team: string | undefined; fresh?: boolean }): Promise<SlackMember> {
  const now = Date.now();
  const key = `${options.team ?? ''}:${user}`;
  const cached = cache.get(key);
  if (!options.fresh && cached && now - cached.at < MEMBER_CACHE_MS) return cached.member;
  try {
    const info = await client.users.info({ user, include_locale: true });
    const u = info.user;
    const member: SlackMember = {
      isAdmin: u?.is_admin === true || u?.is_owner === true,
      ...(u?.tz && { timezone: u.tz }),
      ...(u?.locale && { locale: u.locale }),
      ...(nameOf(u) && { name: nameOf(u) }),
    };
    cache.delete(key);
    cache.set(key, { member, at: now });
    if (cache.size > MEMBER_CACHE_MAX) cache.delete(cache.keys().next().value!);
    return member;
  } catch (err) {
    app.log.warn({ err, user }, 'users.info failed (is the users:read scope granted?); treating the user as a member in UTC, in English');
    return { isAdmin: false };
  }
}

function nameOf(u: { name?: string; real_name?: string; profile?: { display_name?: string; real_name?: string } } | undefined): string | undefined {
  return [u?.profile?.display_name, u?.profile?.real_name, u?.real_name, u?.name].find((n): n is string => typeof n === 'string' && n.trim() !== '')?.trim();
}

/** The context fields a member's answer fills in. */
export function memberContext(member: SlackMember | undefined): { member?: { isAdmin: boolean }; locale?: string } {
  if (!member) return {};
  return { member: { isAdmin: member.isAdmin }, ...(member.locale && { locale: member.locale }) };
}
