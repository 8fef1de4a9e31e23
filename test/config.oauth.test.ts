/**
 * The Slack install flow's settings (many workspaces): selected by SLACK_CLIENT_ID,
 * SLACK_CLIENT_SECRET and SLACK_STATE_SECRET with SLACK_SIGNING_SECRET; half of it, or with a
 * single workspace's token or Socket Mode, is one clear line per problem.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const OAUTH = { SLACK_CLIENT_ID: '1111111111.2222222222', SLACK_CLIENT_SECRET: 'shh', SLACK_STATE_SECRET: 'a-state-secret-of-16+', SLACK_SIGNING_SECRET: 'sign' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('Slack install flow settings', () => {
  it('selects many workspaces: no bot token, the tokens sealed with the state secret unless INSTALLATION_KEY is set', () => {
    expect(loadConfig(OAUTH).slack).toEqual({
      signingSecret: 'sign',
      port: 3000,
      oauth: { clientId: '1111111111.2222222222', clientSecret: 'shh', stateSecret: 'a-state-secret-of-16+', installationKey: 'a-state-secret-of-16+', retentionDays: 30 },
    });
    const keyed = loadConfig({ ...OAUTH, INSTALLATION_KEY: 'k'.repeat(32), SLACK_RETENTION_DAYS: '7' }).slack?.oauth;
    expect(keyed).toMatchObject({ installationKey: 'k'.repeat(32), retentionDays: 7 });
  });

  it('keeps single-workspace mode as it was', () => {
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' }).slack).toEqual({ botToken: 'xoxb-1', signingSecret: 's', port: 3000 });
  });

  it('names what is missing from a half-configured install flow, and what conflicts with it', () => {
    expect(problems({ SLACK_CLIENT_ID: OAUTH.SLACK_CLIENT_ID, SLACK_SIGNING_SECRET: 's' })).toEqual([
      expect.stringMatching(/^SLACK_CLIENT_SECRET, SLACK_STATE_SECRET: are needed with SLACK_CLIENT_ID to install the app in many workspaces: copy the Client ID and Client Secret/),
    ]);
    expect(problems({ ...OAUTH, SLACK_SIGNING_SECRET: '' })).toEqual([expect.stringMatching(/^SLACK_SIGNING_SECRET: is required with the install flow/)]);
    expect(problems({ ...OAUTH, SLACK_BOT_TOKEN: 'xoxb-1' })).toEqual([expect.stringMatching(/^SLACK_BOT_TOKEN: unset it to serve many workspaces/)]);
    expect(problems({ ...OAUTH, SLACK_APP_TOKEN: 'xapp-1' })).toEqual([expect.stringMatching(/^SLACK_APP_TOKEN: the install flow needs HTTP mode/)]);
    expect(problems({ ...OAUTH, SLACK_STATE_SECRET: 'short', INSTALLATION_KEY: 'short', SLACK_CLIENT_ID: 'abc', SLACK_RETENTION_DAYS: 'soon' })).toEqual([
      expect.stringMatching(/^SLACK_CLIENT_ID: must be the Client ID/),
      expect.stringMatching(/^SLACK_STATE_SECRET: must be at least 16 characters/),
      expect.stringMatching(/^INSTALLATION_KEY: must be at least 32 characters/),
      expect.stringMatching(/^SLACK_RETENTION_DAYS: must be a number of days/),
    ]);
  });
});
