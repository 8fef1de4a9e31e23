/**
 * The Slack adapter as it runs in production (startSlack: Bolt's HTTP receiver on a loopback
 * port) against {@link FakeSlack}, and a client that sends it requests signed exactly as Slack
 * signs them: `X-Slack-Signature: v0=` + HMAC-SHA256(signing secret, `v0:<timestamp>:<raw body>`)
 * with `X-Slack-Request-Timestamp`. Commands are form-encoded, interactions `payload=<json>`,
 * events JSON; payload shapes come from test/fixtures/slack.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSlack, type RunningSlack, type SlackOptions } from '../../../adapters/slack/index.js';
import type { App } from '../../../src/app.js';
import { BOT_TOKEN, FakeSlack, type Json } from './fakeSlack.js';

export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';

/** A recorded-shape payload from test/fixtures/slack (without its `$comment`). */
export function fixture<T = Record<string, unknown>>(name: string): T {
  const text = readFileSync(fileURLToPath(new URL(`../../fixtures/slack/${name}.json`, import.meta.url)), 'utf8');
  const { $comment: _, ...body } = JSON.parse(text) as Record<string, unknown>;
  return body as T;
}

export interface SignOptions {
  /** Unix seconds (or any header text, signed as given); default now. */
  timestamp?: number | string;
  /** Signing secret; default the app's. */
  secret?: string;
  /** More headers, e.g. Slack's X-Slack-Retry-Num on a redelivered event. */
  headers?: Record<string, string>;
}

export interface SlackResponse {
  status: number;
  body: string;
  /** performance.now() when the request was sent. */
  sentAt: number;
  /** Milliseconds from sending to the HTTP response (the ack). */
  ms: number;
}

/**
 * Signs and POSTs a raw body to the adapter.
 * @example await send(url, 'a=b', 'application/x-www-form-urlencoded')
 */
export async function send(url: string, body: string, contentType: string, options: SignOptions = {}): Promise<SlackResponse> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', options.secret ?? SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const sentAt = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature, ...options.headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text, sentAt, ms: performance.now() - sentAt };
}

export interface SlackHarness {
  fake: FakeSlack;
  slack: RunningSlack;
  /** http://127.0.0.1:<port>/slack/events */
  url: string;
  /** A slash command; returns the ack and the response_url it carried. */
  command(command: string, text: string, fields?: Record<string, string>, sign?: SignOptions): Promise<SlackResponse & { responseUrl: string }>;
  /** A block_actions interaction; returns the ack and the response_url it carried. */
  action(payload: Record<string, unknown>, sign?: SignOptions): Promise<SlackResponse & { responseUrl: string }>;
  /** An Events API callback (JSON). */
  event(body: Record<string, unknown>, sign?: SignOptions): Promise<SlackResponse>;
  /** Stops the adapter (the fake keeps running unless `fake` is true). */
  stop(options?: { fake?: boolean }): Promise<void>;
}

/**
 * Starts the adapter for `app` against a fake Slack (a new one unless given); `track` is told of
 * each request's handling, start to finish; `clock` is what request stamps are checked against.
 */
export async function startHarness(app: App, existing?: FakeSlack, options: SlackOptions = {}): Promise<SlackHarness> {
  const fake = existing ?? (await FakeSlack.start());
  const slack = await startSlack(app, { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: fake.apiUrl, port: 0 }, options);
  const url = `http://127.0.0.1:${slack.port}/slack/events`;
  const form = 'application/x-www-form-urlencoded';
  return {
    fake,
    slack,
    url,
    async command(command, text, fields = {}, sign) {
      const responseUrl = fake.responseUrl();
      const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), command, text, response_url: responseUrl, ...fields });
      return { ...(await send(url, body.toString(), form, sign)), responseUrl };
    },
    async action(payload, sign) {
      const responseUrl = fake.responseUrl();
      const body = `payload=${encodeURIComponent(JSON.stringify({ ...payload, response_url: responseUrl }))}`;
      return { ...(await send(url, body, form, sign)), responseUrl };
    },
    event(body, sign) {
      return send(url, JSON.stringify(body), 'application/json', sign);
    },
    async stop(options = {}) {
      await slack.stop();
      if (options.fake) await fake.close();
    },
  };
}

/**
 * A block_actions payload for a click on `element` (a button or menu from a rendered message),
 * on an ephemeral message or, with `message`, on a message in the channel.
 */
export function clickPayload(
  element: Record<string, unknown>,
  options: { message?: { ts: string; blocks: unknown[] }; selected?: Record<string, unknown>; user?: string } = {},
): Record<string, unknown> {
  const base = fixture('block-actions');
  const container = base.container as Record<string, unknown>;
  const action =
    element.type === 'static_select'
      ? { type: 'static_select', action_id: element.action_id, block_id: 'Qx8dA', selected_option: options.selected, placeholder: element.placeholder, action_ts: '1760000010.123456' }
      : { type: 'button', action_id: element.action_id, block_id: 'Qx8dA', text: element.text, value: element.value, action_ts: '1760000010.123456' };
  return {
    ...base,
    ...(options.user && { user: { id: options.user, username: 'bob', name: 'bob', team_id: 'T0LAB' } }),
    container: options.message ? { ...container, message_ts: options.message.ts, is_ephemeral: false } : container,
    ...(options.message && { message: { type: 'message', subtype: 'bot_message', bot_id: 'B0BOT', ts: options.message.ts, text: '', blocks: options.message.blocks } }),
    actions: [action],
  };
}

/** The interactive elements of a message's blocks (buttons and menus), sections' accessories among them, in order. */
export function elementsOf(message: { blocks?: unknown }): Json[] {
  const blocks = (message.blocks ?? []) as Json[];
  return blocks.flatMap((b) => (b.type === 'actions' ? (b.elements as Json[]) : b.type === 'section' && b.accessory?.type === 'button' ? [b.accessory as Json] : []));
}

/** The button labelled `label` (throws if there is none). */
export function button(message: { blocks?: unknown }, label: string): Json {
  const found = elementsOf(message).find((e) => e.type === 'button' && e.text?.text === label);
  if (!found) throw new Error(`no "${label}" button in ${JSON.stringify(elementsOf(message).map((e) => e.text?.text ?? e.type))}`);
  return found;
}

/** The static_select menu of a message (throws if there is none). */
export function menu(message: { blocks?: unknown }): Json {
  const found = elementsOf(message).find((e) => e.type === 'static_select');
  if (!found) throw new Error('no menu in the message');
  return found;
}

/** All the text of a message's blocks, one block a line, for `toContain` checks. */
export function textOf(message: { blocks?: unknown }): string {
  const blocks = (message.blocks ?? []) as Json[];
  return blocks
    .map((b) => [b.text?.text, ...((b.elements as Json[] | undefined) ?? []).map((e) => e.text?.text ?? e.text)].filter((t) => typeof t === 'string').join(' | '))
    .join('\n');
}
