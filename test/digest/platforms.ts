/**
 * Both platforms behind one face for the digest fault tests, so that every scenario is written
 * once and run on each: the loopback fake (faults, outage, its clock), the real sender (discord.js
 * REST or Slack's WebClient) made as a fresh process would make it, the environment a child
 * process needs to reach the fake, and the papers each posted message carries.
 */
import pino from 'pino';
import { createDiscordSender } from '../../adapters/discord/digestSender.js';
import { createSlackSender } from '../../adapters/slack/digestSender.js';
import type { DigestSender } from '../../src/digest/sender.js';
import type { ChatPlatform } from '../../src/store/digests.js';
import { FakeDiscord } from '../adapters/discord/fakeDiscord.js';
import { BOT_TOKEN, FakeSlack } from '../adapters/slack/fakeSlack.js';

/** Faults both fakes know, for a message post. */
export type PostFault = { status: number } | { retryAfter: number } | { reset: true } | { hold: Promise<unknown> } | { swallow: true };

export interface TestPlatform {
  name: ChatPlatform;
  /** A channel id as the platform writes them. */
  channel(i: number): string;
  /** A sender as `digest run-due` makes one (a fresh client: no rate-limit state carried over). */
  sender(options?: { timeoutMs?: number }): DigestSender;
  /** A sender whose API is at another origin (`http://host:port`, or https://). */
  senderAt(origin: string): DigestSender;
  /** What a child process needs in its environment to post to the fake. */
  env(): Record<string, string>;
  /** Decides, for each message post (numbered from 0), whether it meets a fault. */
  fault(decide: ((n: number, channel: string) => PostFault | undefined) | undefined): void;
  /** Called with each message post the fake receives, after it decided on a fault. */
  onPost(listener: ((channel: string) => void) | undefined): void;
  /** http://127.0.0.1:<port> of the fake. */
  origin(): string;
  /** The fake's clock, in ms since the epoch. */
  setNow(now: () => number): void;
  down(): Promise<void>;
  up(): Promise<void>;
  /** Posts received (kept or not). */
  postCount(): number;
  /** The paper titles of each message kept in the channel, message by message. */
  papersIn(channel: string): string[][];
  /** Takes the bot's right to read the channel's history away (Discord's Read Message History). */
  hideHistory?(channel: string): void;
  close(): Promise<void>;
}

const silent = pino({ level: 'silent' });
/** Titles of the papers added by test/helpers/papers.ts. */
const TITLE = /Scaling Large Language Models, Part \d+/g;
const titlesOf = (json: string) => [...new Set(json.match(TITLE) ?? [])];

export async function discordPlatform(): Promise<TestPlatform> {
  const fake = await FakeDiscord.start();
  let listener: ((channel: string) => void) | undefined;
  let decide: ((n: number, channel: string) => PostFault | undefined) | undefined;
  fake.postFault = (_body, channel, n) => {
    const fault = decide?.(n, channel);
    listener?.(channel);
    return fault;
  };
  return {
    name: 'discord',
    channel: (i) => String(1300000000000000000n + BigInt(i)),
    sender: (options = {}) => createDiscordSender({ token: fake.token, apiUrl: fake.apiUrl }, options),
    senderAt: (origin) => createDiscordSender({ token: fake.token, apiUrl: `${origin}/api` }, { timeoutMs: 5000 }),
    env: () => ({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl }),
    origin: () => fake.apiUrl.replace(/\/api$/, ''),
    fault: (d) => (decide = d),
    onPost: (l) => (listener = l),
    setNow: (now) => (fake.now = now),
    down: () => fake.down(),
    up: () => fake.up(),
    postCount: () => fake.requests.filter((r) => r.kind === 'message').length,
    papersIn: (channel) => fake.messagesIn(channel).map((m) => titlesOf(JSON.stringify((m.body.embeds ?? []).map((e: { title?: string }) => e.title)))),
    hideHistory: (channel) => void fake.historyHidden.add(channel),
    close: () => fake.close(),
  };
}

export async function slackPlatform(): Promise<TestPlatform> {
  const fake = await FakeSlack.start();
  let listener: ((channel: string) => void) | undefined;
  let decide: ((n: number, channel: string) => PostFault | undefined) | undefined;
  fake.postFault = (args, n) => {
    const fault = decide?.(n, String(args.channel));
    listener?.(String(args.channel));
    return fault;
  };
  return {
    name: 'slack',
    channel: (i) => `C${String(i).padStart(9, '0')}`,
    sender: (options = {}) => createSlackSender({ botToken: BOT_TOKEN, apiUrl: fake.apiUrl, port: 0 }, silent, options),
    senderAt: (origin) => createSlackSender({ botToken: BOT_TOKEN, apiUrl: `${origin}/api/`, port: 0 }, silent, { timeoutMs: 5000 }),
    env: () => ({ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: 'not-used-by-run-due', SLACK_API_URL: fake.apiUrl }),
    origin: () => fake.origin,
    fault: (d) => (decide = d),
    onPost: (l) => (listener = l),
    setNow: (now) => (fake.now = now),
    down: () => fake.down(),
    up: () => fake.up(),
    postCount: () => fake.callsOf('chat.postMessage').length,
    papersIn: (channel) => fake.messagesIn(channel).map((m) => titlesOf(JSON.stringify(m.blocks ?? []))),
    close: () => fake.close(),
  };
}

export const PLATFORMS: Array<[ChatPlatform, () => Promise<TestPlatform>]> = [
  ['discord', discordPlatform],
  ['slack', slackPlatform],
];
