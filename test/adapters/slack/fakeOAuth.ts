/**
 * Slack's side of the OAuth v2 install flow, on a {@link FakeSlack}: the user approves the app
 * in a workspace ({@link FakeOAuth.approve} gives the redirect's `code`), then `oauth.v2.access`
 * exchanges the code (once: a code used again is `invalid_code`, as Slack answers) for a bot token
 * of that workspace, checking the client id and secret. With token rotation on, the bot token
 * expires (`expires_in`) and `oauth.v2.access` with `grant_type=refresh_token` hands out the next
 * one. Every Web API call is then accepted only with a token the fake issued and has not
 * revoked, and `auth.test` says whose token it is.
 *
 * `oauth.v2.exchange` trades a current token that does not expire (a workspace installed before
 * token rotation was turned on) for an expiring one and a refresh token, as rotation issues them;
 * the old token stops working.
 *
 * An org admin can approve the app for a whole Enterprise Grid organization
 * ({@link FakeOAuth.approveOrg}): `oauth.v2.access` then answers as Slack documents an org-wide
 * install (`team: null`, `enterprise`, `is_enterprise_install: true`), with one token for every
 * workspace of the organization.
 */
import { randomBytes } from 'node:crypto';
import type { FakeSlack, Json } from './fakeSlack.js';

export const CLIENT_ID = '1111111111.2222222222';
export const CLIENT_SECRET = 'fake-client-secret';
export const APP_ID = 'A0PAPERS';

/** What holds a token: a workspace, or an organization (an org-wide install). */
interface Workspace {
  team: string;
  name: string;
  installer: string;
  orgWide: boolean;
  token: string;
  refreshToken?: string;
  /** Seconds its token lasts, when it rotates. */
  expiresIn?: number;
}

type Approval = Pick<Workspace, 'team' | 'name' | 'installer' | 'orgWide'>;

export interface FakeOAuthOptions {
  /** Token rotation: bot tokens expire after this many seconds (Slack: 12 hours). */
  expiresIn?: number;
  /** The bot scopes an approval grants (what the install link asked for: the manifest's). */
  scopes?: readonly string[];
  /** The app's client secret (default {@link CLIENT_SECRET}). */
  clientSecret?: string;
}

const SOME_SCOPES = ['commands', 'chat:write', 'chat:write.public', 'app_mentions:read', 'links:read', 'links:write', 'users:read', 'channels:history', 'groups:history'];

export class FakeOAuth {
  /** Bot tokens by workspace (the current one). */
  private readonly workspaces = new Map<string, Workspace>();
  private readonly codes = new Map<string, Approval>();
  private readonly tokenTeams = new Map<string, string>();
  private readonly refreshTokens = new Map<string, string>();
  /** Codes Slack exchanged (each once). */
  readonly exchanged: string[] = [];

  constructor(
    private readonly fake: FakeSlack,
    private readonly options: FakeOAuthOptions = {},
  ) {
    fake.unauthenticated.set('oauth.v2.access', (args, authorization) => this.access(args, authorization));
    fake.unauthenticated.set('oauth.v2.exchange', (args, authorization) => this.exchange(args, authorization));
    fake.answer('auth.test', (_args, token) => {
      const team = this.tokenTeams.get(token ?? '') ?? 'T0LAB';
      return { ok: true, url: `https://${team.toLowerCase()}.slack.com/`, team: this.workspaces.get(team)?.name ?? 'Lab', user: 'paperscout', team_id: team, user_id: `U0BOT${team}`, bot_id: `B0BOT${team}` };
    });
  }

  /** A user of `team` approves the app: the `code` Slack puts in the redirect. */
  approve(team: string, installer = `U0ADMIN${team}`, name = `Workspace ${team}`): string {
    return this.code({ team, name, installer, orgWide: false });
  }

  /** An admin of Enterprise Grid organization `enterprise` approves the app for the whole organization. */
  approveOrg(enterprise: string, installer = `W0ADMIN${enterprise}`, name = `Organization ${enterprise}`): string {
    return this.code({ team: enterprise, name, installer, orgWide: true });
  }

  private code(approval: Approval): string {
    const code = `code-${approval.team}-${randomBytes(6).toString('hex')}`;
    this.codes.set(code, approval);
    return code;
  }

  /** The bot token `team` (or an organization) holds now (undefined when never installed or revoked). */
  tokenOf(team: string): string | undefined {
    return this.workspaces.get(team)?.token;
  }

  /** The team a token belongs to. */
  teamOf(token: string | undefined): string | undefined {
    return token === undefined ? undefined : this.tokenTeams.get(token);
  }

  /** The workspace revokes the app's tokens (an uninstall): they stop working. */
  revoke(team: string): void {
    const ws = this.workspaces.get(team);
    if (!ws) return;
    this.fake.botTokens.delete(ws.token);
    this.workspaces.delete(team);
  }

  private issue({ team, name, installer, orgWide }: Approval, expiresIn = this.options.expiresIn): Workspace {
    const old = this.workspaces.get(team);
    if (old) this.fake.botTokens.delete(old.token);
    const rotating = expiresIn !== undefined;
    const ws: Workspace = {
      team,
      name,
      installer,
      orgWide,
      ...(rotating && { expiresIn }),
      token: `xoxb-${rotating ? 'rot-' : ''}${team}-${randomBytes(6).toString('hex')}`,
      ...(rotating && { refreshToken: `xoxe-1-${team}-${randomBytes(6).toString('hex')}` }),
    };
    this.workspaces.set(team, ws);
    this.fake.botTokens.add(ws.token);
    this.tokenTeams.set(ws.token, team);
    if (ws.refreshToken) this.refreshTokens.set(ws.refreshToken, team);
    return ws;
  }

  private clientOk(args: Json, authorization: string | undefined): boolean {
    const basic = /^Basic (.+)$/.exec(authorization ?? '')?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [args.client_id, args.client_secret];
    return id === CLIENT_ID && secret === (this.options.clientSecret ?? CLIENT_SECRET);
  }

  /** oauth.v2.exchange: the token (bearer, or the `token` argument) of a workspace whose token does not rotate yet. */
  private exchange(args: Json, authorization: string | undefined): Json {
    if (!this.clientOk(args, authorization)) return { ok: false, error: 'invalid_client_id' };
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? String(args.token ?? '');
    const team = this.tokenTeams.get(token);
    const ws = team === undefined ? undefined : this.workspaces.get(team);
    if (!ws || ws.token !== token) return { ok: false, error: 'invalid_auth' };
    const next = this.issue(ws, EXCHANGED_EXPIRES_IN);
    return { ok: true, app_id: APP_ID, scope: 'commands,chat:write', token_type: 'bot', access_token: next.token, bot_user_id: `U0BOT${ws.team}`, refresh_token: next.refreshToken, expires_in: next.expiresIn, ...where(ws) };
  }

  private access(args: Json, authorization: string | undefined): Json {
    if (!this.clientOk(args, authorization)) return { ok: false, error: 'invalid_client_id' };
    if (args.grant_type === 'refresh_token') {
      const team = this.refreshTokens.get(String(args.refresh_token ?? ''));
      const ws = team && this.workspaces.get(team);
      if (!team || !ws || ws.refreshToken !== args.refresh_token) return { ok: false, error: 'invalid_refresh_token' };
      this.refreshTokens.delete(String(args.refresh_token));
      const next = this.issue(ws, ws.expiresIn);
      return { ok: true, app_id: APP_ID, scope: 'commands,chat:write', token_type: 'bot', access_token: next.token, bot_user_id: `U0BOT${team}`, refresh_token: next.refreshToken, expires_in: next.expiresIn, ...where(ws) };
    }
    const code = String(args.code ?? '');
    const approved = this.codes.get(code);
    // Slack: a code is good once (and for ten minutes).
    if (!approved) return { ok: false, error: 'invalid_code' };
    this.codes.delete(code);
    this.exchanged.push(code);
    const ws = this.issue(approved);
    return {
      ok: true,
      app_id: APP_ID,
      authed_user: { id: approved.installer },
      scope: (this.options.scopes ?? SOME_SCOPES).join(','),
      token_type: 'bot',
      access_token: ws.token,
      bot_user_id: `U0BOT${approved.team}`,
      ...(ws.refreshToken && { refresh_token: ws.refreshToken, expires_in: this.options.expiresIn }),
      ...where(ws),
    };
  }
}

/** What rotation gives an exchanged token (Slack: 12 hours). */
const EXCHANGED_EXPIRES_IN = 43_200;

/** Where oauth.v2.access says the app was installed. */
function where(ws: Workspace): Json {
  return ws.orgWide
    ? { team: null, enterprise: { id: ws.team, name: ws.name }, is_enterprise_install: true }
    : { team: { id: ws.team, name: ws.name }, enterprise: null, is_enterprise_install: false };
}
