import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigSchema, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ logLevel: 'info', logFormat: 'auto' });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.discord).toBeUndefined();
    expect(config.slack).toBeUndefined();
  });

  it('treats empty values as unset (a copied .env.example works as is)', () => {
    const env = Object.fromEntries(
      readFileSync(new URL('../.env.example', import.meta.url), 'utf8')
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => l.split('=') as [string, string]),
    );
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('configures Discord and Slack when their credentials are set', () => {
    const config = loadConfig({ DISCORD_TOKEN: 't', DISCORD_GUILD_ID: '123456', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's', PORT: '8080' });
    expect(config.discord).toEqual({ token: 't', guildId: '123456' });
    expect(config.slack).toEqual({ botToken: 'xoxb-1', signingSecret: 's', port: 8080 });
    expect(config.port).toBe(8080);
  });

  it('takes DATABASE_URL for PostgreSQL, and says what it must look like', () => {
    expect(loadConfig({}).database).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/paperscout' }).database).toEqual({ url: 'postgres://u:p@db:5432/paperscout' });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/paperscout' }).database).toEqual({ url: 'postgresql://db/paperscout' });
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/x' })).toThrow(
      'DATABASE_URL: must be a PostgreSQL connection URL such as postgres://paperscout:secret@db.internal:5432/paperscout (unset: SQLite under DATA_DIR)',
    );
  });

  it('maps DISCORD_SHARD_COUNT and DISCORD_SHARDS to the shards this instance runs, and refuses ids that cannot be', () => {
    expect(loadConfig({ DISCORD_TOKEN: 't' }).discord!.shards).toBeUndefined();
    expect(loadConfig({ DISCORD_TOKEN: 't', DISCORD_SHARD_COUNT: '4' }).discord!.shards).toEqual({ count: 4 });
    expect(loadConfig({ DISCORD_TOKEN: 't', DISCORD_SHARD_COUNT: '4', DISCORD_SHARDS: '2, 3' }).discord!.shards).toEqual({ count: 4, ids: [2, 3] });
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ DISCORD_TOKEN: 't', ...env });
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ DISCORD_SHARDS: '0' })).toEqual([
      "DISCORD_SHARDS: needs DISCORD_SHARD_COUNT, the bot's total number of shards across all instances (set it on every instance)",
    ]);
    expect(problems({ DISCORD_SHARD_COUNT: '2', DISCORD_SHARDS: '1,2,3' })).toEqual(['DISCORD_SHARDS: shard ids run from 0 to 1 with DISCORD_SHARD_COUNT=2; 2, 3 are out of range']);
    expect(problems({ DISCORD_SHARD_COUNT: '2', DISCORD_SHARDS: '1,1' })).toEqual(['DISCORD_SHARDS: lists a shard id twice']);
    expect(problems({ DISCORD_SHARD_COUNT: '0', DISCORD_SHARDS: 'one' })).toEqual([
      'DISCORD_SHARD_COUNT: must be the total number of shards of the bot across all instances, a whole number from 1, e.g. 4',
      "DISCORD_SHARDS: must be this instance's shard ids separated by commas, each below DISCORD_SHARD_COUNT, e.g. 0,1",
    ]);
  });

  it('takes PORT for health and metrics without Slack too; 0 picks a free port; out of range is refused', () => {
    expect(loadConfig({}).port).toBe(3000);
    expect(loadConfig({ DISCORD_TOKEN: 't', PORT: '9100' }).port).toBe(9100);
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT: must be a port number from 1 to 65535/);
  });

  it('serves the site unless WEB=off, and takes PUBLIC_URL without its trailing slash', () => {
    expect(loadConfig({}).web).toEqual({ enabled: true });
    expect(loadConfig({ WEB: 'off' }).web).toEqual({ enabled: false });
    expect(loadConfig({ PUBLIC_URL: 'https://papers.lab.example/' }).web).toEqual({ enabled: true, publicUrl: 'https://papers.lab.example' });
    expect(loadConfig({ PUBLIC_URL: 'https://lab.example/papers' }).web.publicUrl).toBe('https://lab.example/papers');
    expect(() => loadConfig({ WEB: 'maybe' })).toThrow(/WEB: must be on or off/);
    expect(() => loadConfig({ PUBLIC_URL: 'papers.lab.example' })).toThrow(/PUBLIC_URL: must be an http\(s\) URL such as https:\/\/papers\.lab\.example/);
    expect(() => loadConfig({ PUBLIC_URL: 'https://papers.lab.example/?x=1' })).toThrow(/PUBLIC_URL: must be the address of the site alone, without \? or #/);
  });

  it('lists every problem at once, each with its fix', () => {
    try {
      loadConfig({ LOG_LEVEL: 'loud', SLACK_BOT_TOKEN: 'nope', PORT: 'x', DISCORD_API_URL: 'ftp://x' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as ConfigError).message;
      for (const key of ['LOG_LEVEL', 'SLACK_BOT_TOKEN: must be a bot token', 'SLACK_SIGNING_SECRET: is required', 'PORT', 'DISCORD_API_URL']) {
        expect(message).toContain(key);
      }
      expect(message).toContain('.env.example');
    }
  });

  it('configures the sources: OAI and OpenReview endpoints, venues, lookups and the contact in the User-Agent', () => {
    const config = loadConfig({
      OPENREVIEW_VENUES: ' ICLR.cc/2025/Conference, NeurIPS.cc/2024/Conference,ICLR.cc/2025/Conference ',
      OPENREVIEW_API_URL: 'http://127.0.0.1:9/',
      LOOKUP_UPSTREAM: 'off',
      PAPERSCOUT_CONTACT: 'lab-admin@example.org',
    });
    expect(config.arxiv.oaiUrl).toBe('https://oaipmh.arxiv.org/oai');
    expect(config.openreview).toEqual({ apiUrl: 'http://127.0.0.1:9', venues: ['ICLR.cc/2025/Conference', 'NeurIPS.cc/2024/Conference'] });
    expect(config.lookup).toEqual({ upstream: false, openalexUrl: 'https://api.openalex.org' });
    expect(config.userAgent).toBe('PaperScout/0.1 (paper-search bot for research groups; mailto:lab-admin@example.org)');
    expect(loadConfig({}).userAgent).toBe('PaperScout/0.1 (paper-search bot for research groups)');
    expect(loadConfig({}).lookup.upstream).toBe(true);
  });

  it('explains bad source settings', () => {
    const message = (() => {
      try {
        loadConfig({ OPENREVIEW_VENUES: 'ICLR 2025', PAPERSCOUT_CONTACT: 'me', LOOKUP_UPSTREAM: 'maybe', OPENREVIEW_USERNAME: 'a@b.org', ARXIV_OAI_URL: 'oaipmh.arxiv.org' });
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).toContain('OPENREVIEW_VENUES: must be OpenReview venue ids separated by commas, e.g. ICLR.cc/2025/Conference');
    expect(message).toContain('PAPERSCOUT_CONTACT: must be an email address or an http(s) URL');
    expect(message).toContain('LOOKUP_UPSTREAM: must be on or off');
    expect(message).toContain('OPENREVIEW_USERNAME, OPENREVIEW_PASSWORD: set both (an OpenReview account) or neither');
    expect(message).toContain('ARXIV_OAI_URL: must be an http(s) URL such as https://oaipmh.arxiv.org/oai');
  });

  it('.env.example mirrors the schema key for key', () => {
    const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
    const keys = [...example.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]).sort();
    expect(keys).toEqual(Object.keys(ConfigSchema.shape).sort());
  });
});
