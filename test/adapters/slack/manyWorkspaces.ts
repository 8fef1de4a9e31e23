/**
 * What the many-workspaces tests (OAuth install flow) share: the app's OAuth settings for the
 * loopback Slack of fakeOAuth.ts, a digest subscription in a workspace, and waiting for what an
 * event handler does after Slack's request was acknowledged.
 */
import type { SlackOAuthConfig } from '../../../src/config.js';
import type { DigestStore, Subscription } from '../../../src/store/digests.js';
import { CLIENT_ID, CLIENT_SECRET } from './fakeOAuth.js';

export const OAUTH: SlackOAuthConfig = {
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  stateSecret: 'state-secret-for-the-install-flow',
  installationKey: 'installation-key-of-at-least-32-characters',
  retentionDays: 30,
};

/** Resolves once `done()` holds (checked every 25 ms); throws after 5 s. */
export async function until(done: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no ${what} within 5 s`);
}

/** A daily digest on diffusion at 09:00 UTC in channel `C<team>` of `team`, by member `<member>`. */
export function subscribeIn(digests: DigestStore, team: string, member: string): Promise<Subscription> {
  return digests.subscribe({
    platform: 'slack',
    workspace: team,
    channel: `C${team}`,
    query: 'diffusion',
    label: 'diffusion',
    time: '09:00',
    timezone: 'UTC',
    days: 'daily',
    count: 3,
    fill: true,
    createdBy: member,
    createdAt: '2026-03-01T00:00:00.000Z',
    locale: 'en',
  });
}
