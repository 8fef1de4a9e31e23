/**
 * The secret settings come from the schema's marks, and the logger scrubs each of them, and the
 * password of any URL setting, from every line. (test/adapters/ops/secretsInLogs.test.ts holds
 * `npm start` itself to it.)
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, MIN_SECRET_LENGTH, SECRET_SETTINGS, loadConfig, secretValues } from '../src/config.js';
import { REDACTED, createLogger } from '../src/logger.js';

/** Names that say "credential": a setting so named that is not marked secret is a mistake. */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|_KEY$|CREDENTIAL/;

/** A logger as `npm start` creates it, into an array of lines. */
function capture(secrets: readonly string[], logFormat: 'json' | 'pretty' = 'json') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: createLogger({ logLevel: 'trace', logFormat, secrets }, stream as unknown as NodeJS.WriteStream), text: () => lines.join('') };
}

describe('secret settings', () => {
  it('are the settings the schema marks, every one named like a credential among them', () => {
    expect([...SECRET_SETTINGS].sort()).toEqual(
      ['DISCORD_TOKEN', 'INSTALLATION_KEY', 'OPENREVIEW_PASSWORD', 'SLACK_APP_TOKEN', 'SLACK_BOT_TOKEN', 'SLACK_CLIENT_SECRET', 'SLACK_SIGNING_SECRET', 'SLACK_STATE_SECRET'].sort(),
    );
    const named = Object.keys(ConfigSchema.shape).filter((k) => SECRET_NAME.test(k));
    expect(named.filter((k) => !SECRET_SETTINGS.includes(k)), 'mark these { secret: true } in src/configSchema.ts').toEqual([]);
  });

  it('and the passwords of URL settings are what the logger is given, as written, encoded and decoded', () => {
    const env = {
      SLACK_CLIENT_SECRET: 'client-secret-0123456789',
      OPENREVIEW_PASSWORD: 'openreview-pw-0123',
      DATABASE_URL: 'postgres://scout:p%40ss%2Fw%C3%B6rd-42@db.internal:5432/papers',
      SLACK_API_URL: 'https://proxy:proxy-pw-0123@slack-proxy.internal/api/',
      ARXIV_API_URL: 'https://export.arxiv.org/api/query?password=param-pw-0123',
      OPENREVIEW_USERNAME: 'scout@lab.example',
      DISCORD_TOKEN: 'short',
      LOG_LEVEL: 'debug',
    };
    const values = secretValues(env);
    for (const v of ['client-secret-0123456789', 'openreview-pw-0123', 'p%40ss%2Fw%C3%B6rd-42', 'p@ss/wörd-42', 'proxy-pw-0123', 'param-pw-0123']) expect(values).toContain(v);
    // Not secrets: the user name, the host, a level; and too short a value would blank out words.
    expect(values.some((v) => v.includes('scout') || v.includes('db.internal') || v === 'debug')).toBe(false);
    expect(values).not.toContain('short');
    expect(values.every((v) => v.length >= MIN_SECRET_LENGTH)).toBe(true);
  });

  it('never reach a log line once loaded: each marker, in messages, fields and errors', () => {
    const marker = (name: string) => `${name.toLowerCase()}-marker-7f3c9e21d4b8a605`;
    const env: Record<string, string> = {
      DISCORD_TOKEN: marker('DISCORD_TOKEN'),
      SLACK_CLIENT_ID: '1111111111.2222222222',
      SLACK_CLIENT_SECRET: marker('SLACK_CLIENT_SECRET'),
      SLACK_STATE_SECRET: marker('SLACK_STATE_SECRET'),
      INSTALLATION_KEY: marker('INSTALLATION_KEY'),
      SLACK_SIGNING_SECRET: marker('SLACK_SIGNING_SECRET'),
      OPENREVIEW_USERNAME: 'scout',
      OPENREVIEW_PASSWORD: marker('OPENREVIEW_PASSWORD'),
      DATABASE_URL: `postgres://scout:${marker('DATABASE_PASSWORD')}@db.internal:5432/papers`,
    };
    const config = loadConfig(env);
    const { log, text } = capture(config.secrets);
    for (const [key, value] of Object.entries(env)) {
      log.info(`${key} is ${value}`);
      log.debug({ setting: key, value, nested: { deeper: { value } } }, 'a field');
      log.error({ err: new Error(`upstream said: bad credentials ${value}`) }, 'an error');
    }
    log.debug(`http request body: ${JSON.stringify({ client_id: env.SLACK_CLIENT_ID, client_secret: env.SLACK_CLIENT_SECRET })}`);
    expect(text()).not.toContain('marker-7f3c9e21d4b8a605');
    expect(text()).toContain(REDACTED);
    expect(text()).toContain('db.internal:5432');
  });

  it.each(['json', 'pretty'] as const)('never reach a %s line when JSON escapes them: a quote, a backslash or a control character in a password', (format) => {
    const password = 'pa"ss\\wo\trd-7f3c9e21';
    const config = loadConfig({ OPENREVIEW_USERNAME: 'scout', OPENREVIEW_PASSWORD: password, DATABASE_URL: `postgres://scout:${encodeURIComponent(password)}@db.internal/papers` });
    const { log, text } = capture(config.secrets, format);
    log.error({ err: new Error(`login refused for ${password}`) }, `upstream said: bad password ${password}`);
    log.info({ value: password }, 'a field');
    // Either spelling of what JSON would write: the characters, or their escapes.
    expect(text()).not.toContain('7f3c9e21');
    expect(text()).toContain(REDACTED);
  });
});
