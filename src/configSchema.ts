/**
 * Every setting: the zod schema of the environment that `loadConfig` (config.ts) validates, each
 * key with what it does (`description`), where it is listed (`section`), its default and what
 * it must be. The configuration reference (docs/configuration.md) and `.env.example` are
 * generated from it (`npm run docs:config`, scripts/configDocs.ts), and a test fails when
 * either differs from what the schema says, so neither can drift from it.
 *
 * Metadata read by the generator, besides zod's own defaults, enums and bounds:
 * - `section`: a key of {@link CONFIG_SECTIONS};
 * - `description`: what the setting does (Markdown: `code` and links only);
 * - `rules`: what a value must be, as the error message says it (set by `checked`);
 * - `defaultText`: the default, where it is not a value of the schema's own.
 */
import { z } from 'zod';

/** The groups settings are listed in, in order, each with a line on when they matter. */
export const CONFIG_SECTIONS = {
  storage: { title: 'Storage and logs', intro: '' },
  discord: {
    title: 'Discord',
    intro: '`npm start` connects to Discord when `DISCORD_TOKEN` is set. Step by step: [docs/discord.md](docs/discord.md).',
  },
  slack: {
    title: 'Slack',
    intro:
      '`npm start` runs the Slack app when `SLACK_BOT_TOKEN` is set, with `SLACK_SIGNING_SECRET` (HTTP mode) or `SLACK_APP_TOKEN` (Socket Mode). Step by step: [docs/slack.md](docs/slack.md).',
  },
  slackWorkspaces: {
    title: 'Slack in many workspaces',
    intro:
      'Instead of `SLACK_BOT_TOKEN`: each workspace adds the app at `/slack/install` ("Add to Slack") and gets a token of its own. Needs `SLACK_SIGNING_SECRET` and HTTP mode (no `SLACK_APP_TOKEN`). See [docs/slack.md, "Distributing the app"](docs/slack.md#distributing-the-app).',
  },
  http: { title: 'HTTP and the search site', intro: '' },
  digests: { title: 'Digests', intro: 'See [docs/digests.md](docs/digests.md) for how each paper is sent once.' },
  arxiv: { title: 'arXiv', intro: 'The live source: `paperscout sync arxiv`, and daily in `npm start`. See [docs/sources.md](docs/sources.md).' },
  openreview: { title: 'OpenReview', intro: '`paperscout sync openreview --venue …`, and lookups of OpenReview links.' },
  lookup: { title: 'Papers the library lacks', intro: 'Named in `/paper`, a Slack mention or a pasted link (arXiv, DOI, OpenReview).' },
  openalex: {
    title: 'OpenAlex: citation counts',
    intro:
      "`paperscout sync openalex`, daily in `npm start`, and `paperscout ingest` of an OpenAlex works file for big libraries. See [docs/operator-guide.md](docs/operator-guide.md#citation-counts-from-openalex).",
  },
  contact: { title: 'Who runs this bot', intro: '' },
  language: {
    title: 'Language of the terminal and the command line',
    intro:
      'Usually set by your system; the first one set wins, as POSIX says. Chinese (`zh_CN`, `zh_TW`, `zh_HK`, …) gives Simplified Chinese, anything else English. Discord and Slack members get their own language from the platform whatever these say.',
  },
} as const satisfies Record<string, { title: string; intro: string }>;

type Section = keyof typeof CONFIG_SECTIONS;
/** What the generator reads of each setting (see the header). */
type SettingMeta = {
  section: Section;
  description: string;
  defaultText?: string;
  /** A credential: no log line holds it (`SECRET_SETTINGS`, `secretValues` in config.ts). */
  secret?: true;
};
const about = (section: Section, description: string, more: Omit<SettingMeta, 'section' | 'description'> = {}): SettingMeta => ({ section, description, ...more });

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));
/** Optional text that, when set, must pass `test`; `rule` is the message when it does not, and what the reference says. */
const checked = (test: (v: string) => boolean, rule: string) => optionalText.refine((v) => v === undefined || test(v), rule).meta({ rules: [rule] });
const url = (example: string) => checked((v) => /^https?:\/\/\S+$/.test(v), `must be an http(s) URL such as ${example}`);
const prefixed = (prefix: string, what: string) => checked((v) => v.startsWith(prefix), `must be ${what} (it starts with "${prefix}")`);
const onOff = (rule = 'must be on or off') => z.enum(['on', 'off'], rule);
/** A whole number read from text; empty is unset. */
const wholeNumber = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/** An OpenReview venue id: `ICLR.cc/2025/Conference`, `NeurIPS.cc/2024/Datasets_and_Benchmarks_Track`. */
export const VENUE_ID = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)+$/;

/** What `npm start` and `paperscout sync arxiv` follow unless ARXIV_CATEGORIES says otherwise. */
export const DEFAULT_ARXIV_CATEGORIES = ['cs.LG', 'cs.CL', 'cs.CV', 'cs.AI', 'cs.RO', 'stat.ML'];

/** A time of day, HH:MM (UTC). */
const SYNC_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** An email address, as PAPERSCOUT_CONTACT takes one. */
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

const SITE_ALONE = 'must be the address of the site alone, without ? or #, e.g. https://papers.lab.example';

export const ConfigSchema = z.object({
  DATA_DIR: z
    .string()
    .trim()
    .min(1)
    .default('./data')
    .meta(about('storage', 'Where the library lives: the SQLite database (the source of truth) and the search index snapshot (`index.bin`) that follows it. With `DATABASE_URL`, only this instance\'s index snapshot (each instance keeps its own).')),
  DATABASE_URL: checked(
    (v) => /^postgres(ql)?:\/\/\S+$/.test(v),
    'must be a PostgreSQL connection URL such as postgres://paperscout:secret@db.internal:5432/paperscout (unset: SQLite under DATA_DIR)',
  ).meta(about('storage', 'PostgreSQL instead of SQLite, for several instances sharing one store: `postgres://user:password@host:5432/database`. Every instance and every command-line run (an import, `digest run-due` from cron, a sync) uses the same URL. Unset: SQLite under `DATA_DIR`. See docs/operator-guide.md, "Running several instances".')),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be one of fatal, error, warn, info, debug, trace, silent')
    .default('info')
    .meta(about('storage', 'How much is logged.', { defaultText: '`info` for the bot, `warn` for the command line (its output is the results)' })),
  LOG_FORMAT: z
    .enum(['auto', 'json', 'pretty'], 'must be auto, json or pretty')
    .default('auto')
    .meta(about('storage', 'JSON lines (`json`), human-readable (`pretty`), or `auto`: pretty on a terminal, JSON lines otherwise. Logs go to stderr.')),
  DISCORD_TOKEN: optionalText.meta(about('discord', 'The bot token from the Discord developer portal (Bot → Reset Token).', { secret: true })),
  DISCORD_APPLICATION_ID: checked((v) => /^\d{5,25}$/.test(v), 'must be the numeric application id from the Discord developer portal').meta(
    about('discord', 'The application id (General Information). Only `npm run deploy:discord` needs it, and only when it cannot look it up with the token.'),
  ),
  DISCORD_GUILD_ID: checked((v) => /^\d{5,25}$/.test(v), 'must be a numeric server (guild) id').meta(
    about('discord', 'Register the commands to this server only, instantly (for testing), instead of globally, which Discord can take up to an hour to show everywhere.'),
  ),
  DISCORD_API_URL: url('https://discord.com/api').meta(about('discord', 'The REST API base URL (a REST proxy, a test server); the gateway URL is read from it.', { defaultText: "Discord's, `https://discord.com/api`" })),
  DISCORD_SHARD_COUNT: checked(
    (v) => /^\d{1,5}$/.test(v) && Number(v) >= 1,
    'must be the total number of shards of the bot across all instances, a whole number from 1, e.g. 4',
  ).meta(
    about('discord', 'Sharding, for a bot in many servers (Discord requires it from 2,500) run as several instances: the bot\'s total number of shards across all instances, the same on every instance.', {
      defaultText: 'one shard',
    }),
  ),
  DISCORD_SHARDS: checked(
    (v) => /^\d{1,5}(\s*,\s*\d{1,5})*$/.test(v),
    "must be this instance's shard ids separated by commas, each below DISCORD_SHARD_COUNT, e.g. 0,1",
  ).meta(about('discord', "This instance's shard ids, comma-separated (`0,1`); needs `DISCORD_SHARD_COUNT`.", { defaultText: 'every shard of `DISCORD_SHARD_COUNT`' })),
  DISCORD_MESSAGE_CONTENT: onOff('must be on or off (on needs the Message Content intent enabled in the Discord developer portal)')
    .default('off')
    .meta(
      about(
        'discord',
        "`on`: read the messages of the channels the bot is in, so that paper links posted there go into the channel's archive (`/library channel`). Needs the privileged Message Content intent, enabled in the developer portal (Bot → Privileged Gateway Intents). `off`: only papers shared through the bot are archived.",
      ),
    ),
  SLACK_BOT_TOKEN: prefixed('xoxb-', 'a bot token').meta(about('slack', 'The Bot User OAuth Token (OAuth & Permissions), `xoxb-…`: one workspace.', { secret: true })),
  SLACK_SIGNING_SECRET: optionalText.meta(
    about('slack', 'The Signing Secret (Basic Information → App Credentials): every request from Slack is verified with it. Needed in HTTP mode and by the install flow.', { secret: true }),
  ),
  SLACK_APP_TOKEN: prefixed('xapp-', 'an app-level token with the connections:write scope').meta(
    about('slack', 'An app-level token with the `connections:write` scope (Basic Information → App-Level Tokens), `xapp-…`: Socket Mode instead of HTTP.', { secret: true }),
  ),
  SLACK_API_URL: url('https://slack.com/api/').meta(
    about('slack', "The Web API base URL (GovSlack, a proxy, a test server); the install flow's code exchange uses it too.", { defaultText: "Slack's, `https://slack.com/api/`" }),
  ),
  SLACK_CLIENT_ID: checked((v) => /^\d+\.\d+$/.test(v), "must be the Client ID from your Slack app's Basic Information page, e.g. 1234567890.0987654321").meta(
    about('slackWorkspaces', 'The Client ID (Basic Information → App Credentials). Set with `SLACK_CLIENT_SECRET` and `SLACK_STATE_SECRET`, all three or none.'),
  ),
  SLACK_CLIENT_SECRET: optionalText.meta(about('slackWorkspaces', 'The Client Secret (Basic Information → App Credentials).', { secret: true })),
  SLACK_STATE_SECRET: checked((v) => v.length >= 16, 'must be at least 16 characters of your choosing (e.g. the output of `openssl rand -hex 32`)').meta(
    about('slackWorkspaces', "A secret of your choosing (`openssl rand -hex 32`): signs install links, and seals the workspaces' tokens in the database unless `INSTALLATION_KEY` is set.", { secret: true }),
  ),
  INSTALLATION_KEY: checked((v) => v.length >= 32, 'must be at least 32 characters (e.g. the output of `openssl rand -hex 32`)').meta(
    about('slackWorkspaces', "The key the workspaces' tokens are sealed with at rest (AES-256-GCM). Keep it outside the database's backups; changing it makes every workspace install again.", {
      defaultText: '`SLACK_STATE_SECRET`',
      secret: true,
    }),
  ),
  SLACK_RETENTION_DAYS: wholeNumber(
    z.coerce.number('must be a number of days such as 30').int('must be a whole number of days such as 30').min(0, 'must be 0 or more days').max(3650, 'must be at most 3650 days').default(30),
  ).meta(about('slackWorkspaces', "Days a workspace's data (digest subscriptions) is kept after it removes the app; a reinstall within them finds everything again.")),
  ARXIV_CATEGORIES: checked(
    (v) => v.split(',').every((c) => /^[a-z-]+(\.[A-Za-z-]+)?$/.test(c.trim())),
    'must be arXiv categories separated by commas, e.g. cs.LG,cs.CL,stat.ML',
  )
    .default(DEFAULT_ARXIV_CATEGORIES.join(','))
    .meta(about('arxiv', 'The categories to follow, comma-separated.')),
  ARXIV_RSS_URL: url('https://rss.arxiv.org/rss/')
    .default('https://rss.arxiv.org/rss/')
    .meta(about('arxiv', 'The base URL of the per-category RSS feeds (the category is appended).')),
  ARXIV_API_URL: url('https://export.arxiv.org/api/query')
    .default('https://export.arxiv.org/api/query')
    .meta(about('arxiv', "arXiv's API query endpoint: announcement days the feeds missed, and arXiv ids the library lacks.")),
  ARXIV_SYNC_TIME: checked((v) => SYNC_TIME.test(v), 'must be a time of day HH:MM (UTC), e.g. 02:30')
    .default('02:30')
    .meta(about('arxiv', "When `npm start` syncs each day, HH:MM in UTC (after arXiv's nightly announcement).")),
  ARXIV_OAI_URL: url('https://oaipmh.arxiv.org/oai')
    .default('https://oaipmh.arxiv.org/oai')
    .meta(about('arxiv', "arXiv's OAI-PMH endpoint, for backfills (`paperscout sync arxiv --from YYYY-MM-DD`).")),
  OPENREVIEW_API_URL: url('https://api2.openreview.net').default('https://api2.openreview.net').meta(about('openreview', 'The API v2 base URL.')),
  OPENREVIEW_VENUES: checked(
    (v) => v.split(',').every((venue) => VENUE_ID.test(venue.trim())),
    'must be OpenReview venue ids separated by commas, e.g. ICLR.cc/2025/Conference,NeurIPS.cc/2024/Conference',
  ).meta(about('openreview', 'The venue ids `npm start` keeps fresh (weekly; daily in the month after decisions), comma-separated, e.g. `ICLR.cc/2025/Conference,NeurIPS.cc/2024/Conference`.', { defaultText: 'none' })),
  OPENREVIEW_USERNAME: optionalText.meta(
    about('openreview', 'An OpenReview account (its email), for queries OpenReview refuses to anonymous clients ("ChallengeRequiredError"). Set it and `OPENREVIEW_PASSWORD` both, or neither.'),
  ),
  OPENREVIEW_PASSWORD: optionalText.meta(about('openreview', "That account's password.", { secret: true })),
  LOOKUP_UPSTREAM: onOff()
    .default('on')
    .meta(about('lookup', '`on`: fetch them from arXiv, OpenAlex or OpenReview, show them and add them to the library. `off`: never fetch them (no outbound call from `/paper`, mentions or unfurls).')),
  OPENALEX_API_URL: url('https://api.openalex.org')
    .default('https://api.openalex.org')
    .meta(about('openalex', 'The OpenAlex API base URL: citation counts, and DOIs the library lacks. Point it at another server that answers as OpenAlex does: a mirror, or the loopback OpenAlex of the tests and `npm run bench`.')),
  OPENALEX_MAILTO: checked((v) => EMAIL.test(v), 'must be an email address, e.g. lab-admin@example.org').meta(
    about(
      'openalex',
      "The email address OpenAlex may reach you at: sent as `mailto=` with every request and in the User-Agent, which puts the requests in OpenAlex's polite pool (faster, more reliable).",
      { defaultText: '`PAPERSCOUT_CONTACT`, when that is an email address' },
    ),
  ),
  OPENALEX_SYNC: checked((v) => v === 'off' || SYNC_TIME.test(v), 'must be off or a time of day HH:MM (UTC), e.g. 04:10')
    .default('04:10')
    .meta(
      about(
        'openalex',
        '`npm start` asks OpenAlex each day at this time, HH:MM in UTC, for the counts of the papers added since, counts older than 30 days and papers not found 30 days ago (once across instances). `off`: only `paperscout sync openalex` does.',
      ),
    ),
  PAPERSCOUT_CONTACT: checked(
    (v) => EMAIL.test(v) || /^https?:\/\/\S+$/.test(v),
    'must be an email address or an http(s) URL where the people running this bot can be reached, e.g. lab-admin@example.org',
  ).meta(
    about('contact', "An email address or URL where the people running this bot can be reached. Sent in the User-Agent to arXiv, OpenReview and OpenAlex (and as OpenAlex's `mailto`), as they ask of harvesters."),
  ),
  DIGEST_SCHEDULER: onOff()
    .default('on')
    .meta(
      about('digests', '`on`: `npm start` sends due digests when it starts and every minute. `off`: something else runs `paperscout digest run-due` (cron). Both may run on one `DATA_DIR` or one PostgreSQL: one process at a time sends each digest.'),
    ),
  WEB: onOff().default('on').meta(about('http', "`on`: `npm start` serves the search site on `PORT` at `/`, in every mode (the terminal's too). `off`: no site.")),
  PUBLIC_URL: url('https://papers.lab.example')
    .refine((v) => v === undefined || !/[?#]/.test(v), SITE_ALONE)
    .meta({
      rules: ['must be an http(s) URL such as https://papers.lab.example', SITE_ALONE],
      ...about('http', 'The site\'s address as people reach it: `/paper` replies link to it ("All 1,234 results ↗", each title to its page there), and so do digests. Unset: replies link to the papers\' own pages.'),
    }),
  // The terminal's language, as POSIX orders them: LC_ALL over LC_MESSAGES over LANG.
  LC_ALL: optionalText.meta(about('language', 'Overrides `LC_MESSAGES` and `LANG`.', { defaultText: "your system's" })),
  LC_MESSAGES: optionalText.meta(about('language', 'The language of messages; overrides `LANG`.', { defaultText: "your system's" })),
  LANG: optionalText.meta(about('language', 'The locale, e.g. `zh_CN.UTF-8` for Chinese.', { defaultText: "your system's" })),
  PORT: wholeNumber(
    z.coerce
      .number('must be a port number such as 3000')
      .int('must be a port number such as 3000')
      .min(0, 'must be a port number from 1 to 65535 (0: any free port)')
      .max(65535, 'must be a port number from 1 to 65535 (0: any free port)')
      .default(3000),
  ).meta(
    about('http', "The HTTP port of `npm start`: the search site at `/` (unless `WEB=off`), Slack's requests at `/slack/events` (HTTP mode) and, with a platform adapter, `/healthz`, `/readyz` and `/metrics`. `0` picks a free port."),
  ),
});
export type RawConfig = z.infer<typeof ConfigSchema>;
