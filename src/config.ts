/**
 * Configuration: one zod schema over the environment (configSchema.ts, where every setting is
 * described), read in one place. Every problem is reported at once, each with what to set.
 * `.env.example` and docs/configuration.md are generated from the schema.
 */
import { resolve } from 'node:path';
import { ConfigSchema, type RawConfig } from './configSchema.js';
import { posixLocale } from './i18n/locale.js';
import { userAgent } from './userAgent.js';

export { ConfigSchema, VENUE_ID, type RawConfig } from './configSchema.js';

/**
 * The settings the schema marks `secret` (configSchema.ts): a new credential is marked where it is
 * defined, and a test holds every setting named like a secret to it.
 */
export const SECRET_SETTINGS: readonly string[] = Object.entries(ConfigSchema.shape)
  .filter(([, schema]) => (schema.meta() as { secret?: unknown } | undefined)?.secret === true)
  .map(([key]) => key);

/** Shorter values are not scrubbed from the log: they would blank out ordinary words (and are no secret worth the name). */
export const MIN_SECRET_LENGTH = 8;

/**
 * What no log line may hold, from `env`: the value of every secret setting, and the password of
 * every setting that is a URL with one (DATABASE_URL's, or a proxy's in SLACK_API_URL), as
 * written, as URL-encoded and as decoded, from its user-info or a `password` parameter.
 * @example secretValues({ DATABASE_URL: 'postgres://scout:s3cret%21pw@db:5432/papers' }) // ['s3cret%21pw', 's3cret!pw']
 * @example secretValues({ SLACK_CLIENT_SECRET: '8f0c…', LOG_LEVEL: 'debug' }) // ['8f0c…']
 */
export function secretValues(env: Record<string, string | undefined>): string[] {
  const found = new Set<string>();
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[key]?.trim();
    if (!value) continue;
    if (SECRET_SETTINGS.includes(key)) found.add(value);
    for (const password of urlPasswords(value)) found.add(password);
  }
  // Longest first: a secret that holds another (a password as written and as decoded) goes whole.
  return [...found].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** The password of a URL in every spelling a log line could carry it (none when `text` is no URL). */
function urlPasswords(text: string): string[] {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(text);
  if (!scheme) return [];
  const out: string[] = [];
  const authority = scheme[1]!;
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  if (at > 0 && colon >= 0 && colon < at) out.push(authority.slice(colon + 1, at));
  const parsed = URL.canParse(text) ? new URL(text) : undefined;
  if (parsed?.password) out.push(parsed.password);
  const param = parsed?.searchParams.get('password');
  if (param) out.push(param, encodeURIComponent(param));
  return out.flatMap((p) => [p, safeDecode(p)]);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface DiscordConfig {
  token: string;
  /**
   * Sharding: the bot's shards across all instances (`count`, discord.js's `shardCount`) and the
   * ones this instance runs (`ids`, discord.js's `shards`; all of them when unset). Unset: one
   * shard, as Discord allows below 2,500 servers.
   */
  shards?: { count: number; ids?: number[] };
  /** Needed only to register commands before the bot has connected once; read from Discord otherwise. */
  applicationId?: string;
  /** Register commands to this server only (instant) instead of globally. */
  guildId?: string;
  /** REST base URL, e.g. a proxy or a test server; the gateway URL comes from it. */
  apiUrl?: string;
  /**
   * DISCORD_MESSAGE_CONTENT: read the messages of the channels the bot is in (the privileged
   * Message Content intent), so that paper links posted there go into the channel's archive.
   * Off: only papers shared through the bot are archived.
   */
  messageContent?: boolean;
}

export interface SlackConfig {
  /** One workspace: the bot token (SLACK_BOT_TOKEN). Unset when {@link oauth} is set. */
  botToken?: string;
  /** Many workspaces: the install flow (OAuth), each workspace's token from the installation store. */
  oauth?: SlackOAuthConfig;
  /** Verifies Slack's requests in HTTP mode (Socket Mode needs none). */
  signingSecret?: string;
  /** Socket Mode instead of HTTP when set. */
  appToken?: string;
  /** Web API base URL (GovSlack, a proxy, a test server). */
  apiUrl?: string;
  /** HTTP port for /slack/events in HTTP mode. */
  port: number;
}

export interface SlackOAuthConfig {
  clientId: string;
  clientSecret: string;
  /** Signs the install flow's `state`. */
  stateSecret: string;
  /** What tokens at rest are sealed with (INSTALLATION_KEY, else SLACK_STATE_SECRET). */
  installationKey: string;
  /** Days a removed workspace's data is kept before it is deleted (SLACK_RETENTION_DAYS). */
  retentionDays: number;
}

export interface ArxivConfig {
  /** Categories to follow, e.g. ['cs.LG', 'cs.CL']. */
  categories: string[];
  /** Base of the per-category RSS feeds (`<base><category>`). */
  rssUrl: string;
  /** The arXiv API query endpoint. */
  apiUrl: string;
  /** When `npm start` syncs each day, HH:MM in UTC. */
  syncTime: string;
  /** The OAI-PMH endpoint for backfills (`sync arxiv --from`). */
  oaiUrl: string;
}

export interface OpenReviewConfig {
  /** API v2 base URL. */
  apiUrl: string;
  /** Venue ids `npm start` keeps fresh, e.g. ['ICLR.cc/2025/Conference']. */
  venues: string[];
  /** An OpenReview account, for venues (or times) that do not answer anonymous queries. */
  username?: string;
  password?: string;
}

export interface LookupConfig {
  /** Whether papers the library lacks are fetched from arXiv, OpenAlex and OpenReview (LOOKUP_UPSTREAM). */
  upstream: boolean;
  /** OpenAlex API base URL, for DOIs. */
  openalexUrl: string;
}

export interface OpenAlexConfig {
  /** The API base URL, without a trailing slash (OPENALEX_API_URL). */
  apiUrl: string;
  /** Sent as `mailto=` and in the User-Agent: OpenAlex's polite pool (OPENALEX_MAILTO, else PAPERSCOUT_CONTACT when an email). */
  mailto?: string;
  /** The User-Agent of requests to OpenAlex, naming {@link mailto}. */
  userAgent: string;
  /** When `npm start` syncs counts each day, HH:MM in UTC; undefined when OPENALEX_SYNC is off. */
  syncTime?: string;
}

export interface WebConfig {
  /** Whether `npm start` serves the site (WEB=on, the default). */
  enabled: boolean;
  /**
   * PUBLIC_URL: the site's address as people reach it (`https://papers.lab.example`, no trailing
   * slash). Replies link to it when set; the site's own links are relative either way.
   */
  publicUrl?: string;
}

export interface Config {
  dataDir: string;
  /** SQLite's database under DATA_DIR, the store unless {@link database} is set. */
  dbPath: string;
  /** DATABASE_URL: PostgreSQL is the store (several instances share it); DATA_DIR keeps the index only. */
  database?: { url: string };
  indexPath: string;
  logLevel: RawConfig['LOG_LEVEL'];
  logFormat: RawConfig['LOG_FORMAT'];
  /**
   * HTTP port of `npm start` with a platform adapter: Slack's /slack/events in HTTP mode, and
   * /healthz, /readyz and /metrics in every mode. 0 picks a free port.
   */
  port: number;
  /** Whether `npm start` sends due digests itself (off when cron runs `digest run-due`). */
  digestScheduler: boolean;
  /** The search site `npm start` serves on {@link port} at `/` (WEB, on by default). */
  web: WebConfig;
  /**
   * The terminal's locale (LC_ALL, else LC_MESSAGES, else LANG, e.g. `zh_CN.UTF-8`): the
   * language of the terminal adapter and the command line. Chat platforms report each user's.
   */
  locale?: string;
  /** Set when DISCORD_TOKEN is. */
  discord?: DiscordConfig;
  /**
   * Set when SLACK_BOT_TOKEN is (with SLACK_SIGNING_SECRET for HTTP mode, or SLACK_APP_TOKEN), or
   * for many workspaces when SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET are
   * (with SLACK_SIGNING_SECRET).
   */
  slack?: SlackConfig;
  arxiv: ArxivConfig;
  openreview: OpenReviewConfig;
  lookup: LookupConfig;
  openalex: OpenAlexConfig;
  /** Who runs this bot (PAPERSCOUT_CONTACT): an email or URL sent in the User-Agent to arXiv, OpenReview and OpenAlex. */
  contact?: string;
  /** The User-Agent every outbound request sends. */
  userAgent: string;
  /** What no log line may hold: the secret settings' values and URL passwords ({@link secretValues}). */
  secrets: readonly string[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly problems: string[],
    /** The secrets the environment held, to scrub from wherever this is written ({@link secretValues}). */
    readonly secrets: readonly string[] = [],
  ) {
    super(`Configuration has ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee .env.example for every setting.`);
  }
}

/**
 * Reads the configuration from `env` (process.env by default; dotenv has already merged `.env`),
 * with `defaults` for what it leaves unset (the CLI logs less by default than the bot).
 * Throws a {@link ConfigError} listing every problem with its fix.
 * @example const config = loadConfig({ DATA_DIR: '/var/lib/paperscout' });
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, defaults: Record<string, string> = {}): Config {
  // An empty value means "not set" (a copied .env.example works as is); `defaults` fill the gaps.
  const given = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== ''));
  env = { ...defaults, ...given };
  const parsed = ConfigSchema.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  const set = (key: string) => (env[key]?.trim() ?? '') !== '';
  if (set('SLACK_BOT_TOKEN') && !set('SLACK_SIGNING_SECRET') && !set('SLACK_APP_TOKEN')) {
    problems.push(
      "SLACK_SIGNING_SECRET: is required with SLACK_BOT_TOKEN in HTTP mode: copy it from your Slack app's Basic Information page (or set SLACK_APP_TOKEN for Socket Mode)",
    );
  }
  problems.push(...shardProblems(env));
  const oauthKeys = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'];
  const oauth = oauthKeys.some(set);
  problems.push(...oauthProblems(set));
  if (!oauth && !set('SLACK_BOT_TOKEN') && (set('SLACK_SIGNING_SECRET') || set('SLACK_APP_TOKEN'))) {
    problems.push('SLACK_BOT_TOKEN: is required to run the Slack app: copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions');
  }
  if (set('OPENREVIEW_USERNAME') !== set('OPENREVIEW_PASSWORD')) {
    problems.push('OPENREVIEW_USERNAME, OPENREVIEW_PASSWORD: set both (an OpenReview account) or neither');
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems, secretValues(env));
  const raw = parsed.data;
  const dataDir = resolve(raw.DATA_DIR);
  const locale = posixLocale({ LC_ALL: raw.LC_ALL, LC_MESSAGES: raw.LC_MESSAGES, LANG: raw.LANG });
  return {
    dataDir,
    dbPath: resolve(dataDir, 'paperscout.db'),
    ...(raw.DATABASE_URL && { database: { url: raw.DATABASE_URL } }),
    indexPath: resolve(dataDir, 'index.bin'),
    logLevel: raw.LOG_LEVEL,
    logFormat: raw.LOG_FORMAT,
    port: raw.PORT,
    digestScheduler: raw.DIGEST_SCHEDULER === 'on',
    web: { enabled: raw.WEB === 'on', ...(raw.PUBLIC_URL && { publicUrl: raw.PUBLIC_URL.replace(/\/+$/, '') }) },
    ...(locale !== undefined && { locale }),
    arxiv: {
      categories: raw.ARXIV_CATEGORIES.split(',').map((c) => c.trim()).filter(Boolean),
      rssUrl: raw.ARXIV_RSS_URL,
      apiUrl: raw.ARXIV_API_URL,
      syncTime: raw.ARXIV_SYNC_TIME,
      oaiUrl: raw.ARXIV_OAI_URL,
    },
    openreview: {
      apiUrl: raw.OPENREVIEW_API_URL.replace(/\/+$/, ''),
      venues: raw.OPENREVIEW_VENUES ? [...new Set(raw.OPENREVIEW_VENUES.split(',').map((v) => v.trim()).filter(Boolean))] : [],
      ...(raw.OPENREVIEW_USERNAME && { username: raw.OPENREVIEW_USERNAME }),
      ...(raw.OPENREVIEW_PASSWORD && { password: raw.OPENREVIEW_PASSWORD }),
    },
    lookup: {
      upstream: raw.LOOKUP_UPSTREAM === 'on',
      openalexUrl: raw.OPENALEX_API_URL.replace(/\/+$/, ''),
    },
    openalex: openAlexConfig(raw),
    ...(raw.PAPERSCOUT_CONTACT && { contact: raw.PAPERSCOUT_CONTACT }),
    userAgent: userAgent(raw.PAPERSCOUT_CONTACT),
    secrets: secretValues(env),
    ...(raw.DISCORD_TOKEN && {
      discord: {
        token: raw.DISCORD_TOKEN,
        ...(raw.DISCORD_APPLICATION_ID && { applicationId: raw.DISCORD_APPLICATION_ID }),
        ...(raw.DISCORD_GUILD_ID && { guildId: raw.DISCORD_GUILD_ID }),
        ...(raw.DISCORD_API_URL && { apiUrl: raw.DISCORD_API_URL }),
        ...(raw.DISCORD_MESSAGE_CONTENT === 'on' && { messageContent: true }),
        ...(raw.DISCORD_SHARD_COUNT && {
          shards: { count: Number(raw.DISCORD_SHARD_COUNT), ...(raw.DISCORD_SHARDS && { ids: shardIds(raw.DISCORD_SHARDS) }) },
        }),
      },
    }),
    ...((raw.SLACK_BOT_TOKEN || raw.SLACK_CLIENT_ID) && {
        slack: {
          ...(raw.SLACK_BOT_TOKEN && { botToken: raw.SLACK_BOT_TOKEN }),
          ...(raw.SLACK_CLIENT_ID &&
            raw.SLACK_CLIENT_SECRET &&
            raw.SLACK_STATE_SECRET && {
              oauth: {
                clientId: raw.SLACK_CLIENT_ID,
                clientSecret: raw.SLACK_CLIENT_SECRET,
                stateSecret: raw.SLACK_STATE_SECRET,
                installationKey: raw.INSTALLATION_KEY ?? raw.SLACK_STATE_SECRET,
                retentionDays: raw.SLACK_RETENTION_DAYS,
              },
            }),
          ...(raw.SLACK_SIGNING_SECRET && { signingSecret: raw.SLACK_SIGNING_SECRET }),
          ...(raw.SLACK_APP_TOKEN && { appToken: raw.SLACK_APP_TOKEN }),
          ...(raw.SLACK_API_URL && { apiUrl: raw.SLACK_API_URL }),
          port: raw.PORT,
        },
      }),
  };
}

/** OpenAlex's settings: the polite pool's address is OPENALEX_MAILTO, else PAPERSCOUT_CONTACT when that is an email. */
function openAlexConfig(raw: RawConfig): OpenAlexConfig {
  const contact = raw.PAPERSCOUT_CONTACT;
  const mailto = raw.OPENALEX_MAILTO ?? (contact && !/^https?:/i.test(contact) ? contact : undefined);
  return {
    apiUrl: raw.OPENALEX_API_URL.replace(/\/+$/, ''),
    ...(mailto && { mailto }),
    userAgent: userAgent(mailto ?? contact),
    ...(raw.OPENALEX_SYNC !== 'off' && { syncTime: raw.OPENALEX_SYNC }),
  };
}

/**
 * The install flow's settings together: all three or none, with the signing secret, and never
 * with a single workspace's bot token or Socket Mode.
 */
function oauthProblems(set: (key: string) => boolean): string[] {
  const keys = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'];
  const given = keys.filter(set);
  if (given.length === 0) return [];
  const problems: string[] = [];
  if (given.length < keys.length) {
    const missing = keys.filter((k) => !set(k));
    problems.push(
      `${missing.join(', ')}: ${missing.length === 1 ? 'is' : 'are'} needed with ${given.join(', ')} to install the app in many workspaces: copy the Client ID and Client Secret from your Slack app's Basic Information page, and choose a SLACK_STATE_SECRET (openssl rand -hex 32)`,
    );
  }
  if (set('SLACK_BOT_TOKEN')) {
    problems.push('SLACK_BOT_TOKEN: unset it to serve many workspaces through the install flow (SLACK_CLIENT_ID …), or unset SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to serve one workspace');
  }
  if (set('SLACK_APP_TOKEN')) problems.push('SLACK_APP_TOKEN: the install flow needs HTTP mode (Slack redirects browsers to /slack/oauth_redirect): unset SLACK_APP_TOKEN');
  if (!set('SLACK_SIGNING_SECRET')) problems.push("SLACK_SIGNING_SECRET: is required with the install flow (SLACK_CLIENT_ID …): copy it from your Slack app's Basic Information page");
  return problems;
}

function shardIds(list: string): number[] {
  return list.split(',').map((id) => Number(id.trim()));
}

/** What the two shard settings say together: ids only with a count, each below it, none twice. */
function shardProblems(env: Record<string, string | undefined>): string[] {
  const count = env.DISCORD_SHARD_COUNT?.trim();
  const list = env.DISCORD_SHARDS?.trim();
  if (!list || !/^\d{1,5}(\s*,\s*\d{1,5})*$/.test(list)) return [];
  if (!count) return ["DISCORD_SHARDS: needs DISCORD_SHARD_COUNT, the bot's total number of shards across all instances (set it on every instance)"];
  if (!/^\d{1,5}$/.test(count) || Number(count) < 1) return [];
  const ids = shardIds(list);
  const problems: string[] = [];
  const over = ids.filter((id) => id >= Number(count));
  if (over.length > 0) problems.push(`DISCORD_SHARDS: shard ids run from 0 to ${Number(count) - 1} with DISCORD_SHARD_COUNT=${count}; ${over.join(', ')} ${over.length === 1 ? 'is' : 'are'} out of range`);
  if (new Set(ids).size !== ids.length) problems.push('DISCORD_SHARDS: lists a shard id twice');
  return problems;
}
