/**
 * What each way a digest post can fail means, found out through the real clients (discord.js
 * REST over undici, Slack's WebClient over fetch) against real sockets: a refused connection, a
 * name that does not resolve, a TLS handshake with a server that speaks plain HTTP, a 5xx, a 429,
 * an answer that never comes, a connection reset after the request was written. And how a part of
 * unknown outcome is found again in the channel.
 */
import { createServer } from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordSender, digestKeyLine } from '../../adapters/discord/digestSender.js';
import { createSlackSender, DIGEST_EVENT_TYPE } from '../../adapters/slack/digestSender.js';
import { failedToConnect, requestFailure } from '../../src/digest/outcome.js';
import { DeliveryError, type DigestPartId, type DigestSender } from '../../src/digest/sender.js';
import { messageReply } from '../../src/reply.js';
import { FakeDiscord } from '../adapters/discord/fakeDiscord.js';
import { BOT_TOKEN, FakeSlack } from '../adapters/slack/fakeSlack.js';
import { PLATFORMS, type TestPlatform } from './platforms.js';

const reply = messageReply('Deep Learning · Large Language Models · Monday, 2 March 2026');
const id = (part = 0): DigestPartId => ({ key: `d1.abc.${part}`, subscription: 1, slot: '2026-03-02T09:00:00.000Z', part });

/** Posts and returns the DeliveryError it failed with (fails the test if it went through). */
async function failure(sender: DigestSender, channel: string): Promise<DeliveryError> {
  try {
    await sender.post(channel, reply, id());
  } catch (err) {
    expect(err).toBeInstanceOf(DeliveryError);
    return err as DeliveryError;
  }
  throw new Error('the post went through');
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('failedToConnect', () => {
  const coded = (code: string, message = code) => Object.assign(new Error(message), { code });
  it.each([
    ['a refused connection', coded('ECONNREFUSED'), true],
    ['no such host', coded('ENOTFOUND'), true],
    ['a DNS server that did not answer', coded('EAI_AGAIN'), true],
    ['a connect timeout', coded('UND_ERR_CONNECT_TIMEOUT'), true],
    ['a certificate that does not verify', coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), true],
    ['a TLS alert in the handshake', coded('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION'), true],
    ['fetch failed, caused by a refusal', new TypeError('fetch failed', { cause: coded('ECONNREFUSED') }), true],
    ['Slack’s wrapper around it', Object.assign(new Error('A request error occurred'), { code: 'slack_webapi_request_error', original: new TypeError('fetch failed', { cause: coded('ENOTFOUND') }) }), true],
    ['every address refused (happy eyeballs)', new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), true],
    ['a reset after the request went out', coded('ECONNRESET'), false],
    ['the other side closed', coded('UND_ERR_SOCKET', 'other side closed'), false],
    ['a timeout waiting for the answer', new DOMException('The operation was aborted due to timeout', 'TimeoutError'), false],
    ['an abort', new DOMException('This operation was aborted', 'AbortError'), false],
    ['a TLS error after the handshake', coded('ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC'), false],
    ['something else', new Error('???'), false],
  ])('%s: %s', (_what, err, expected) => {
    expect(failedToConnect(err)).toBe(expected);
    expect(requestFailure(err, 'X').failure).toBe(expected ? 'transient' : 'unknown');
  });
});

describe.each(PLATFORMS)('posting to %s through its real client', (_name, start) => {
  let platform: TestPlatform;
  beforeEach(async () => {
    platform = await start();
  });
  afterEach(() => platform.close());

  it('a refused connection is "not sent"', async () => {
    const err = await failure(platform.senderAt(`http://127.0.0.1:${await closedPort()}`), platform.channel(1));
    expect(err).toMatchObject({ failure: 'transient', message: expect.stringMatching(/unreachable \(ECONNREFUSED\)/) });
  });

  it('a name that does not resolve is "not sent"', async () => {
    const err = await failure(platform.senderAt('http://paperscout-test.invalid'), platform.channel(1));
    expect(err).toMatchObject({ failure: 'transient', message: expect.stringMatching(/unreachable \((ENOTFOUND|EAI_AGAIN)\)/) });
  });

  it('a failed TLS handshake is "not sent"', async () => {
    const err = await failure(platform.senderAt(platform.origin().replace('http:', 'https:')), platform.channel(1));
    expect(err).toMatchObject({ failure: 'transient', message: expect.stringMatching(/unreachable \(ERR_SSL_/) });
    expect(platform.postCount()).toBe(0);
  });

  it('a 5xx is "not sent", and the client does not retry it', async () => {
    platform.fault(() => ({ status: 503 }));
    expect(await failure(platform.sender(), platform.channel(1))).toMatchObject({ failure: 'transient', message: expect.stringMatching(/HTTP 503/) });
    expect(platform.postCount()).toBe(1);
    expect(platform.papersIn(platform.channel(1))).toEqual([]);
  });

  it('a 429 comes back to the runner with its wait, instead of being slept through', async () => {
    platform.fault(() => ({ retryAfter: 75 }));
    const err = await failure(platform.sender(), platform.channel(1));
    expect(err.failure).toBe('rateLimited');
    expect(err.retryAfterMs).toBeGreaterThanOrEqual(75_000);
    expect(err.retryAfterMs).toBeLessThan(76_000);
    expect(platform.postCount()).toBe(1);
  });

  it('an answer that does not come in time is "unknown", and the client does not retry it', async () => {
    platform.fault(() => ({ hold: new Promise(() => undefined) }));
    const err = await failure(platform.sender({ timeoutMs: 200 }), platform.channel(1));
    expect(err).toMatchObject({ failure: 'unknown', message: expect.stringMatching(/did not answer/) });
    expect(platform.postCount()).toBe(1);
    expect(platform.papersIn(platform.channel(1))).toHaveLength(1); // it had arrived
  });

  it('a connection reset after the request was written is "unknown"', async () => {
    platform.fault(() => ({ reset: true }));
    const err = await failure(platform.sender(), platform.channel(1));
    expect(err).toMatchObject({ failure: 'unknown', message: expect.stringMatching(/ECONNRESET/) });
    expect(platform.postCount()).toBe(1);
  });
});

describe('finding a Slack digest message again', () => {
  let fake: FakeSlack;
  let sender: DigestSender;
  const window = { from: new Date('2026-03-02T08:55:00Z'), to: new Date('2026-03-02T09:10:00Z') };
  beforeAll(async () => {
    fake = await FakeSlack.start();
    sender = createSlackSender({ botToken: BOT_TOKEN, apiUrl: fake.apiUrl, port: 0 }, pino({ level: 'silent' }));
  });
  afterAll(() => fake.close());

  it('posts with message metadata naming the run and part', async () => {
    fake.now = () => Date.parse('2026-03-02T09:00:00Z');
    await sender.post('C100', reply, id(2));
    expect(fake.callsOf('chat.postMessage').at(-1)!.args.metadata).toEqual({
      event_type: DIGEST_EVENT_TYPE,
      event_payload: { key: 'd1.abc.2', subscription: 1, slot: '2026-03-02T09:00:00.000Z', part: 2 },
    });
  });

  it('finds it with conversations.history and its metadata, past other messages, and only in its window', async () => {
    fake.now = () => Date.parse('2026-03-02T09:01:00Z');
    for (let i = 0; i < 450; i++) fake.addMessage('C100', `chatter ${i}`);
    fake.addMessage('C100', 'someone quoting it', { event_type: 'other_app', event_payload: { key: 'd1.abc.3' } });
    expect(await sender.find('C100', id(2), window)).toBe(true);
    expect(await sender.find('C100', id(3), window)).toBe(false);
    expect(await sender.find('C101', id(2), window)).toBe(false);
    expect(await sender.find('C100', id(2), { from: new Date('2026-03-02T10:00:00Z'), to: new Date('2026-03-02T10:15:00Z') })).toBe(false);
    const reads = fake.callsOf('conversations.history');
    expect(reads[0]!.args).toMatchObject({ channel: 'C100', include_all_metadata: 'true', oldest: '1772441700.000000', latest: '1772442600.000000', inclusive: 'true' });
    expect(reads.length).toBeGreaterThan(4); // it paged
  });

  it('says what to fix when it may not read the history, instead of guessing', async () => {
    fake.fail('conversations.history', 'missing_scope', (args) => args.channel === 'C200');
    fake.fail('conversations.history', 'not_in_channel', (args) => args.channel === 'C201');
    await expect(sender.find('C200', id(0), window)).rejects.toMatchObject({ failure: 'forbidden', message: expect.stringMatching(/channels:history and groups:history/) });
    await expect(sender.find('C201', id(0), window)).rejects.toMatchObject({ failure: 'forbidden', message: expect.stringMatching(/invite the bot/) });
  });
});

describe('finding a Discord digest message again', () => {
  let fake: FakeDiscord;
  let sender: DigestSender;
  const channel = '1300000000000000100';
  const window = { from: new Date('2026-03-02T08:55:00Z'), to: new Date('2026-03-02T09:10:00Z') };
  beforeAll(async () => {
    fake = await FakeDiscord.start();
    sender = createDiscordSender({ token: fake.token, apiUrl: fake.apiUrl });
  });
  afterAll(() => fake.close());

  it('posts with an enforced nonce and the key as the last line of small print', async () => {
    fake.now = () => Date.parse('2026-03-02T09:00:00Z');
    await sender.post(channel, reply, id(1));
    const [message] = fake.messagesIn(channel);
    expect(message!.body).toMatchObject({ nonce: 'd1.abc.1', enforce_nonce: true, content: `Deep Learning · Large Language Models · Monday, 2 March 2026\n${digestKeyLine('d1.abc.1')}` });
  });

  it('finds the bot’s message by its key in the channel’s messages, paging from the attempt on', async () => {
    fake.now = () => Date.parse('2026-03-02T08:50:00Z');
    fake.addMessage(channel, 'before the window');
    fake.now = () => Date.parse('2026-03-02T09:00:30Z');
    for (let i = 0; i < 230; i++) fake.addMessage(channel, `chatter ${i}`);
    fake.addMessage(channel, `a member pasting it\n${digestKeyLine('d1.abc.2')}`);
    expect(await sender.find(channel, id(1), window)).toBe(true);
    expect(await sender.find(channel, id(2), window)).toBe(false);
    const reads = fake.requests.filter((r) => r.method === 'GET' && r.path === `/channels/${channel}/messages`);
    expect(reads[0]!.query).toEqual({ after: String((BigInt(window.from.getTime()) - 1420070400000n) << 22n), limit: '100' });
  });

  it('says what to fix when it may not read the channel', async () => {
    fake.channelErrors.set('1300000000000000101', { status: 403, message: 'Missing Access', code: 50001 });
    await expect(sender.find('1300000000000000101', id(0), window)).rejects.toMatchObject({ failure: 'forbidden', message: expect.stringMatching(/Read Message History/) });
  });

  it('takes an empty history for "cannot tell", never "not there", where the bot may not read it', async () => {
    const cannotTell = { failure: 'forbidden', message: expect.stringMatching(/lacks Read Message History there: whether the digest message arrived cannot be told/) };
    // Discord's answer without Read Message History: an empty list. The post did arrive.
    const hidden = '1300000000000000102';
    fake.historyHidden.add(hidden);
    fake.now = () => Date.parse('2026-03-02T09:00:00Z');
    await sender.post(hidden, reply, id(1));
    await expect(sender.find(hidden, id(1), window)).rejects.toMatchObject(cannotTell);
    // Nothing posted there since the window began, or ever: still not the bot's to conclude.
    const quiet = '1300000000000000103';
    fake.historyHidden.add(quiet);
    fake.now = () => Date.parse('2026-03-02T08:40:00Z');
    fake.addMessage(quiet, 'an older message');
    await expect(sender.find(quiet, id(1), window)).rejects.toMatchObject(cannotTell);
    const empty = '1300000000000000104';
    fake.historyHidden.add(empty);
    await expect(sender.find(empty, id(1), window)).rejects.toMatchObject(cannotTell);
    // It asked Discord what the bot may do there: the channel's overwrites, the server's roles, its own.
    const asked = fake.requests.filter((r) => r.method === 'GET' && !r.path.endsWith('/messages')).map((r) => r.path);
    expect(asked).toEqual(expect.arrayContaining([`/channels/${empty}`, `/guilds/${fake.guildId}`, `/guilds/${fake.guildId}/members/${fake.botUser.id}`]));
  });

  it('believes an empty history where the bot may read it', async () => {
    // A readable channel whose only message since was deleted (a moderator): not there.
    const moderated = '1300000000000000105';
    fake.now = () => Date.parse('2026-03-02T09:00:00Z');
    await sender.post(moderated, reply, id(1));
    fake.deleteMessage(moderated, fake.messagesIn(moderated)[0]!.id);
    expect(await sender.find(moderated, id(1), window)).toBe(false);
    expect(await sender.find('1300000000000000106', id(1), window)).toBe(false); // never a message
  });
});
