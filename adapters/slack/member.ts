/**
 * What Slack says about the member behind a request, for /digest: whether they are a workspace
 * admin or owner (who may change any digest) and their time zone (the default for a new one).
 */
import type { webApi } from '@slack/bolt';
import type { App } from '../../src/app.js';

export interface SlackMember {
  isAdmin: boolean;
  timezone?: string;
}

/**
 * users.info (the users:read scope). Without an answer, the user is treated as a member in UTC.
 * @example const member = await memberInfo(client, 'U123', app);
 */
export async function memberInfo(client: webApi.WebClient, user: string, app: App): Promise<SlackMember> {
  try {
    const info = await client.users.info({ user });
    const u = info.user;
    return { isAdmin: u?.is_admin === true || u?.is_owner === true, ...(u?.tz && { timezone: u.tz }) };
  } catch (err) {
    app.log.warn({ err, user }, 'users.info failed (is the users:read scope granted?); treating the user as a member in UTC');
    return { isAdmin: false };
  }
}

/** The context fields a member's answer fills in. */
export function memberContext(member: SlackMember | undefined): { member?: { isAdmin: boolean } } {
  return member ? { member: { isAdmin: member.isAdmin } } : {};
}
