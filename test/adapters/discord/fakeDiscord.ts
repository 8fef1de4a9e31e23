/**
 * A loopback Discord for tests and benchmarks: just enough of the REST API and the gateway for
 * discord.js 14 to log in, receive interactions and answer them, with every request it makes
 * captured for assertions.
 *
 * - REST (`<apiUrl>/v10/…`): `GET /gateway/bot` answers with this server's own ws:// URL;
 *   interaction callbacks (messages, deferrals, autocomplete choices, modals), `@original` edits
 *   and deletes, follow-ups; `GET /applications/@me`;
 *   `GET`/`PUT` of global and guild commands. Message bodies are checked against Discord's
 *   limits (a violation is a 400 "Invalid Form Body", as Discord answers), a second callback for
 *   one interaction is a 400 "already acknowledged", a callback after 3 s a 404 "Unknown
 *   interaction".
 * - Channel messages: `POST /channels/{id}/messages` keeps the message (dropping a repeat of
 *   an enforced nonce, as Discord does) and `GET /channels/{id}/messages` (`after`, `before`,
 *   `limit`) returns message objects as Discord documents them, newest first, without nonces
 *   (none at all in a channel whose history the bot may not read, where reading one message by
 *   id is a 403); `GET /channels/{id}` gives its server, `last_message_id` and permission
 *   overwrites (one denying the bot's role Read Message History where it is hidden); `GET
 *   /guilds/{id}` its owner and roles, `GET /guilds/{id}/members/{bot}` the bot's roles; `GET
 *   /users/@me` is the bot. Faults for posts
 *   ({@link FakeDiscord.postFault}): a 5xx or a 429 with Retry-After (nothing posted), or the
 *   message posted and its answer held or lost to a connection reset; {@link FakeDiscord.down}
 *   and {@link FakeDiscord.up} close and reopen the port.
 * - Files: a message with attachments comes as discord.js sends it, multipart/form-data with
 *   `payload_json` and `files[n]`; the body is read from `payload_json`, the files kept beside it
 *   ({@link CapturedRequest.files}), and the message Discord answers lists them as attachments.
 * - Gateway (JSON, uncompressed: discord.js asks for zlib-stream only when zlib-sync is
 *   installed): HELLO, IDENTIFY → READY (no guilds), heartbeat ACKs, then whatever
 *   {@link FakeDiscord.dispatch} sends. Sharding as Discord does it: each connection is the shard
 *   its IDENTIFY names (`shard: [id, count]`, else `[0, 1]`), and an event of a server goes only
 *   to the connection of shard `(guild_id >> 22) % count`, one without a server (a DM) to shard 0.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { clientsSeeTheClose } from '../slack/fakeSlack.js';
import { choicesProblems, messageProblems, modalProblems } from './discordRules.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

export type RequestKind = 'gateway' | 'callback' | 'edit' | 'delete' | 'followup' | 'application' | 'commands' | 'message' | 'other';

export interface CapturedRequest {
  kind: RequestKind;
  method: string;
  /** The path after `/api/v10`. */
  path: string;
  query: Record<string, string>;
  /** The interaction token of callback and webhook routes. */
  token?: string;
  body: any;
  /** `performance.now()` when the whole request had arrived. */
  at: number;
  /** Files of a multipart request (`files[n]`), as text. */
  files: CapturedFile[];
  /** Discord's objections to the body; non-empty means the fake answered 400. */
  problems: string[];
  status: number;
}

/** A file attached to a request. */
export interface CapturedFile {
  /** The form field: `files[0]`, … */
  field: string;
  name: string;
  contentType: string;
  content: string;
  bytes: number;
}

/** What the fake does with a channel message post instead of answering it at once. */
export type PostFault =
  /** Answers this HTTP status (a 5xx); nothing is posted. */
  | { status: number }
  /** Answers 429 with this Retry-After (seconds); nothing is posted. */
  | { retryAfter: number; global?: boolean }
  /** Posts the message, then resets the connection: the answer is lost. */
  | { reset: true }
  /** Posts the message, and answers once `until` settles (a slow answer). */
  | { hold: Promise<unknown> }
  /** Takes the request and never answers, without posting (lost before the platform kept it). */
  | { swallow: true };

/** A message kept in a channel. */
export interface ChannelMessage {
  channel: string;
  body: any;
  id: string;
  /** ms since the epoch, by the fake's clock. */
  at: number;
  /** Who posted it; the bot when absent. */
  author?: any;
}

interface Waiter {
  match: (r: CapturedRequest) => boolean;
  resolve: (r: CapturedRequest) => void;
}

/** How long Discord waits for the first answer to an interaction. */
export const INTERACTION_DEADLINE_MS = 3000;
/** Permission bits the fake's server hands out. */
const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;
const EMBED_LINKS = 1n << 14n;
const READ_MESSAGE_HISTORY = 1n << 16n;
/** What @everyone may do in a new server (the text-chat part of Discord's defaults). */
const EVERYONE_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_MESSAGE_HISTORY;
/** What the bot's role was given when it was invited. */
const BOT_ROLE_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_MESSAGE_HISTORY;

/** The gateway intents the fake tells apart (Discord's bits). */
const GUILD_MESSAGES_INTENT = 1 << 9;
const MESSAGE_CONTENT_INTENT = 1 << 15;

export class FakeDiscord {
  readonly token = `MTE5MDAwMDAwMDAwMDAwMDAwMQ.fake.${randomBytes(12).toString('base64url')}`;
  readonly applicationId = '1190000000000000001';
  readonly botUser = { id: '1190000000000000001', username: 'Paper Scout', discriminator: '6502', global_name: null, avatar: null, bot: true, public_flags: 524288 };
  /** The server every channel of the fake is in (the fixtures' server). */
  readonly guildId = '1190000000000000100';
  /** The bot's own role in it (the role Discord makes for a bot when it joins). */
  readonly botRoleId = '1190000000000000801';
  readonly requests: CapturedRequest[] = [];
  /** Registered commands by scope: `global` or a guild id. */
  readonly commands = new Map<string, any[]>();
  /** Each server's preferred locale (GET /guilds/:id), en-US when not set. */
  readonly guildLocales = new Map<string, string>();
  /**
   * Whether the developer portal grants the privileged Message Content intent: when false, an
   * IDENTIFY that asks for it is closed with 4014 (Disallowed intent(s)), as Discord does.
   */
  messageContentEnabled = true;
  /** IDENTIFY payloads received. */
  readonly identifies: any[] = [];
  /** Every dispatch, with the shard it went to (none when no connection is that shard). */
  readonly dispatched: Array<{ event: string; shard: number | undefined; guildId: string | undefined }> = [];
  /** When set, interaction callbacks fail with this Discord error (an interaction that expired in transit). */
  failCallbacks: { status: number; message: string; code: number } | undefined;
  /** Messages posted to channels (POST /channels/:id/messages), duplicates by enforced nonce dropped. */
  readonly channelMessages: ChannelMessage[] = [];
  /** Decides, for each channel message post, whether it meets a fault. */
  postFault: ((body: any, channel: string, n: number) => PostFault | undefined) | undefined;
  /** The fake's clock (ms since the epoch): snowflakes and timestamps. */
  now: () => number = () => Date.now();
  /** Channels that refuse posts with this Discord error (a deleted channel, missing permissions). */
  readonly channelErrors = new Map<string, { status: number; message: string; code: number }>();
  /**
   * Channels where the bot lacks Read Message History (an overwrite denies it to the bot's role):
   * as Discord documents, their history reads answer an empty list, not an error (posts and
   * `GET /channels/{id}` still work).
   */
  readonly historyHidden = new Set<string>();
  /** Each channel's last message id, kept when that message is deleted (GET /channels/{id}). */
  private readonly lastMessageIds = new Map<string, string>();
  /** How many of the next channel posts get a 429 (with a short retry_after). */
  rateLimitPosts = 0;
  private readonly interactions = new Map<string, { payload: any; dispatchedAt: number; acknowledged: boolean }>();
  private readonly sockets = new Set<WebSocket>();
  private readonly waiters: Waiter[] = [];
  private readonly pending = new Set<() => void>();
  private nextId = 1n;
  private postCount = 0;
  private port = 0;

  private constructor(
    private readonly server: Server,
    private readonly wss: WebSocketServer,
  ) {}

  /** Starts the fake on a free loopback port. */
  static async start(): Promise<FakeDiscord> {
    const server = createServer();
    const wss = new WebSocketServer({ server });
    const fake = new FakeDiscord(server, wss);
    server.on('request', (req, res) => void fake.onRequest(req, res));
    wss.on('connection', (socket) => fake.onConnection(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake.port = (server.address() as AddressInfo).port;
    return fake;
  }

  private get origin(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Closes the port (and the gateway connections): connections are refused until {@link FakeDiscord.up}. */
  async down(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await clientsSeeTheClose();
  }

  /** Listens again on the same port. */
  async up(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  /**
   * Closes every gateway session with `code`, as Discord does when it ends one for good (4004: the
   * token was reset): discord.js does not reconnect by itself after such a code.
   */
  closeSessions(code = 4004, reason = 'Authentication failed.'): void {
    for (const socket of this.sockets) socket.close(code, reason);
  }

  /** Messages posted to `channel`, oldest first. */
  messagesIn(channel: string): ChannelMessage[] {
    return this.channelMessages.filter((m) => m.channel === channel);
  }

  /** A message someone else posted in a channel (by default a member, not the bot). */
  addMessage(channel: string, content: string, author: any = { id: '1190000000000000777', username: 'member', discriminator: '0', global_name: 'Member', avatar: null }): ChannelMessage {
    const message = { channel, body: { content }, id: this.snowflake(), at: this.now(), author };
    this.channelMessages.push(message);
    this.lastMessageIds.set(channel, message.id);
    return message;
  }

  /** Deletes a channel message (a moderator did); the channel keeps its id as its last message's, as Discord does. */
  deleteMessage(channel: string, id: string): void {
    const at = this.channelMessages.findIndex((m) => m.channel === channel && m.id === id);
    if (at >= 0) this.channelMessages.splice(at, 1);
  }

  /** The REST base to give discord.js (`rest.api`, DISCORD_API_URL). */
  get apiUrl(): string {
    return `http://${this.origin}/api`;
  }

  /** Gateway connections that have identified and are open. */
  get sessions(): number {
    return [...this.sockets].filter((s) => s.readyState === s.OPEN).length;
  }

  /** A new snowflake, increasing, from the fake's clock. */
  snowflake(): string {
    return String(((BigInt(Math.floor(this.now())) - 1420070400000n) << 22n) | (this.nextId++ & 0x3fffffn));
  }

  /**
   * Sends a gateway dispatch (`op 0`) to the connections of the shard Discord would use: the
   * server's, `(guild_id >> 22) % shard_count`, or shard 0 for an event outside any server.
   */
  dispatch(event: string, data: unknown, forIntents?: (intents: number) => unknown): void {
    const given = (data as { guild_id?: unknown } | null)?.guild_id;
    // A hostile test payload's guild_id may be anything: it goes where a DM would.
    const guildId = typeof given === 'string' && /^\d{1,20}$/.test(given) ? given : undefined;
    let shard: number | undefined;
    for (const socket of this.sockets) {
      const [id, count] = (socket as any).shard as [number, number];
      const wanted = guildId === undefined ? 0 : shardOf(guildId, count);
      if (id !== wanted) continue;
      const d = forIntents ? forIntents((socket as any).intents ?? 0) : data;
      if (d === undefined) continue;
      shard = id;
      const s = ((socket as any).seq = ((socket as any).seq ?? 0) + 1);
      socket.send(JSON.stringify({ op: 0, t: event, s, d }));
    }
    this.dispatched.push({ event, shard, guildId });
  }

  /** Dispatches INTERACTION_CREATE; the 3 s deadline starts now. */
  interactionCreate(payload: any): void {
    this.interactions.set(payload.token, { payload, dispatchedAt: performance.now(), acknowledged: false });
    this.dispatch('INTERACTION_CREATE', payload);
  }

  /** Dispatches an interaction and resolves with its first callback. */
  async interact(payload: any, timeoutMs = 5000): Promise<CapturedRequest> {
    const callback = this.waitFor((r) => r.kind === 'callback' && r.token === payload.token, timeoutMs);
    this.interactionCreate(payload);
    return callback;
  }

  /** The next request (or one already captured) that matches. */
  waitFor(match: (r: CapturedRequest) => boolean, timeoutMs = 5000): Promise<CapturedRequest> {
    const seen = this.requests.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`FakeDiscord: no matching request within ${timeoutMs} ms; got ${this.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Every request made for one interaction token, in order. */
  requestsFor(token: string): CapturedRequest[] {
    return this.requests.filter((r) => r.token === token);
  }

  /** Closes the gateway connections and the server. */
  async close(): Promise<void> {
    for (const release of this.pending) release();
    for (const socket of this.sockets) socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.server.closeAllConnections();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ── Gateway ───────────────────────────────────────────────────────────────────────────────

  private onConnection(socket: WebSocket): void {
    socket.send(JSON.stringify({ op: 10, s: null, t: null, d: { heartbeat_interval: 41250 } }));
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { op: number; d: any };
      if (message.op === 1) socket.send(JSON.stringify({ op: 11, s: null, t: null, d: null }));
      else if (message.op === 2) this.onIdentify(socket, message.d);
      else if (message.op === 6) socket.send(JSON.stringify({ op: 9, s: null, t: null, d: false }));
    });
  }

  private onIdentify(socket: WebSocket, identify: any): void {
    this.identifies.push(identify);
    if (identify.token !== this.token) {
      socket.close(4004, 'Authentication failed.');
      return;
    }
    if ((Number(identify.intents) & MESSAGE_CONTENT_INTENT) !== 0 && !this.messageContentEnabled) {
      socket.close(4014, 'Disallowed intent(s).');
      return;
    }
    this.sockets.add(socket);
    (socket as any).seq = 1;
    (socket as any).shard = identify.shard ?? [0, 1];
    (socket as any).intents = Number(identify.intents) || 0;
    const url = `ws://${this.origin}`;
    const ready = {
      v: 10,
      user: { ...this.botUser, verified: true, mfa_enabled: false, flags: 0, email: null },
      guilds: [],
      session_id: randomBytes(16).toString('hex'),
      resume_gateway_url: url,
      shard: identify.shard ?? [0, 1],
      application: { id: this.applicationId, flags: 8945664 },
      user_settings: {},
      private_channels: [],
      presences: [],
      relationships: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: ['rotterdam'],
      auth_session_id_hash: randomBytes(16).toString('base64'),
      _trace: ['["gateway-fake",{"micros":0}]'],
    };
    socket.send(JSON.stringify({ op: 0, t: 'READY', s: 1, d: ready }));
  }

  // ── REST ──────────────────────────────────────────────────────────────────────────────────

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', `http://${this.origin}`);
    const path = decodeURIComponent(url.pathname).replace(/^\/api/, '').replace(/^\/v10/, '');
    const { body, files } = await readBody(Buffer.concat(chunks), req.headers['content-type']);
    const captured: CapturedRequest = {
      kind: 'other',
      method: req.method ?? 'GET',
      path,
      query: Object.fromEntries(url.searchParams),
      body,
      files,
      at: performance.now(),
      problems: [],
      status: 200,
    };
    const [status, payload, fault] = this.route(captured, req.headers.authorization);
    captured.status = status;
    this.requests.push(captured);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(captured)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(captured);
      }
    }
    if (fault && 'reset' in fault) {
      req.socket.resetAndDestroy();
      return;
    }
    if (fault && 'hold' in fault) await this.settled(fault.hold);
    if (res.destroyed || status === 0) {
      res.destroy(); // swallowed: never answered
      return;
    }
    if (status === 204) {
      res.writeHead(204).end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status === 429) {
      // As Discord sends them: seconds to wait, the limit's scope, and for a global one the flag.
      headers['retry-after'] = String((payload as any).retry_after);
      headers['x-ratelimit-scope'] = (payload as any).global ? 'global' : 'user';
      if ((payload as any).global) headers['x-ratelimit-global'] = 'true';
    }
    res.writeHead(status, headers).end(JSON.stringify(payload));
  }

  /** Resolves when `hold` settles, or when the fake closes. */
  private settled(hold: Promise<unknown>): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        this.pending.delete(release);
        resolve();
      };
      this.pending.add(release);
      hold.then(release, release);
    });
  }

  private route(r: CapturedRequest, authorization: string | undefined): [number, unknown, PostFault?] {
    const authorized = authorization === `Bot ${this.token}`;
    const unauthorized: [number, unknown] = [401, { message: '401: Unauthorized', code: 0 }];
    let m: RegExpExecArray | null;
    if (r.method === 'GET' && r.path === '/gateway/bot') {
      r.kind = 'gateway';
      if (!authorized) return unauthorized;
      // max_concurrency above the shards a test runs: discord.js identifies them without the 5 s wait between buckets.
      return [200, { url: `ws://${this.origin}`, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 16 } }];
    }
    if ((m = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(r.path)) && r.method === 'POST') {
      r.kind = 'callback';
      r.token = m[2];
      return this.callback(r);
    }
    if ((m = /^\/webhooks\/(\d+)\/([^/]+)(\/messages\/@original)?$/.exec(r.path))) {
      r.token = m[2];
      const interaction = this.interactions.get(m[2]!);
      if (!interaction?.acknowledged) return [404, { message: 'Unknown Webhook', code: 10015 }];
      if (m[3] && r.method === 'PATCH') return this.message(r, 'edit', interaction.payload);
      if (m[3] && r.method === 'DELETE') {
        r.kind = 'delete';
        return [204, undefined];
      }
      if (!m[3] && r.method === 'POST') return this.message(r, 'followup', interaction.payload);
    }
    if ((m = /^\/channels\/(\d+)\/messages$/.exec(r.path)) && r.method === 'POST') {
      r.kind = 'message';
      if (!authorized) return unauthorized;
      return this.refusalOf(m[1]!) ?? this.channelMessage(r, m[1]!);
    }
    if ((m = /^\/channels\/(\d+)\/messages$/.exec(r.path)) && r.method === 'GET') {
      if (!authorized) return unauthorized;
      return this.refusalOf(m[1]!) ?? this.history(r, m[1]!);
    }
    if ((m = /^\/channels\/(\d+)$/.exec(r.path)) && r.method === 'GET') {
      if (!authorized) return unauthorized;
      return this.refusalOf(m[1]!) ?? this.channel(m[1]!);
    }
    if ((m = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(r.path)) && r.method === 'GET') {
      if (!authorized) return unauthorized;
      return this.refusalOf(m[1]!) ?? this.oneMessage(m[1]!, m[2]!);
    }
    if (r.method === 'GET' && r.path === '/users/@me') {
      if (!authorized) return unauthorized;
      return [200, this.botUser];
    }
    if (r.method === 'GET' && (r.path === '/applications/@me' || r.path === '/oauth2/applications/@me')) {
      r.kind = 'application';
      if (!authorized) return unauthorized;
      return [200, { id: this.applicationId, name: 'Paper Scout', description: '', bot_public: true, bot_require_code_grant: false, flags: 8945664, verify_key: 'f'.repeat(64) }];
    }
    if ((m = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(r.path))) {
      r.kind = 'commands';
      if (!authorized) return unauthorized;
      if (m[1] !== this.applicationId) return [403, { message: 'Missing Access', code: 50001 }];
      const scope = m[2] ?? 'global';
      // As Discord: localization dictionaries only with ?with_localizations=true.
      if (r.method === 'GET') return [200, (this.commands.get(scope) ?? []).map((c) => (r.query.with_localizations === 'true' ? c : withoutLocalizations(c)))];
      if (r.method === 'PUT') return [200, this.overwrite(scope, r.body as any[], m[2])];
    }
    if ((m = /^\/guilds\/(\d+)$/.exec(r.path)) && r.method === 'GET') {
      if (!authorized) return unauthorized;
      return [200, this.guild(m[1]!)];
    }
    if ((m = /^\/guilds\/(\d+)\/members\/(\d+)$/.exec(r.path)) && r.method === 'GET') {
      if (!authorized) return unauthorized;
      if (m[2] !== this.botUser.id) return [404, { message: 'Unknown Member', code: 10007 }];
      return [200, { user: this.botUser, nick: null, roles: [this.botRoleId], joined_at: '2026-01-05T10:00:00.000000+00:00', deaf: false, mute: false, flags: 0 }];
    }
    return [404, { message: '404: Not Found', code: 0 }];
  }

  /** The error {@link channelErrors} gives a channel, as Discord answers it; undefined for a channel that works. */
  private refusalOf(channel: string): [number, unknown] | undefined {
    const refusal = this.channelErrors.get(channel);
    return refusal && [refusal.status, { message: refusal.message, code: refusal.code }];
  }

  private channelMessage(r: CapturedRequest, channel: string): [number, unknown, PostFault?] {
    if (this.rateLimitPosts > 0) {
      this.rateLimitPosts--;
      return [429, { message: 'You are being rate limited.', retry_after: 0.05, global: false }];
    }
    r.problems = messageProblems(r.body ?? {}, { create: true });
    if (r.problems.length > 0) return [400, { message: 'Invalid Form Body', code: 50035, errors: r.problems }];
    const fault = this.postFault?.(r.body, channel, this.postCount++);
    if (fault && 'status' in fault) return [fault.status, { message: `${fault.status}: Server Error`, code: 0 }];
    if (fault && 'retryAfter' in fault) return [429, { message: 'You are being rate limited.', retry_after: fault.retryAfter, global: fault.global ?? false }];
    if (fault && 'swallow' in fault) return [0, undefined, { hold: new Promise(() => undefined) }];
    const nonce = r.body?.enforce_nonce ? r.body?.nonce : undefined;
    const earlier = nonce === undefined ? undefined : this.channelMessages.find((m) => m.channel === channel && m.body.nonce === nonce);
    const message = earlier ?? { channel, body: r.body, id: this.snowflake(), at: this.now() };
    if (!earlier) {
      this.channelMessages.push(message);
      this.lastMessageIds.set(channel, message.id);
    }
    return [200, { ...this.messageObject(message), nonce }, fault];
  }

  /** GET /channels/{id}/messages: newest first, `after` or `before` an id, at most `limit` (100). */
  private history(r: CapturedRequest, channel: string): [number, unknown] {
    if (this.historyHidden.has(channel)) return [200, []];
    const limit = Math.min(Math.max(Number(r.query.limit ?? 50) || 50, 1), 100);
    const byId = (a: ChannelMessage, b: ChannelMessage) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
    let list = this.messagesIn(channel).sort(byId);
    if (r.query.after) list = list.filter((m) => BigInt(m.id) > BigInt(r.query.after!)).slice(0, limit);
    else if (r.query.before) list = list.filter((m) => BigInt(m.id) < BigInt(r.query.before!)).slice(-limit);
    else list = list.slice(-limit);
    return [200, list.reverse().map((m) => this.messageObject(m))];
  }

  /** GET /channels/{id}: a text channel of the server, with the id of its last message, deleted or not (null when it never had one). */
  private channel(channel: string): [number, unknown] {
    const last = this.lastMessageIds.get(channel) ?? null;
    const overwrites = this.historyHidden.has(channel) ? [{ id: this.botRoleId, type: 0, allow: '0', deny: String(READ_MESSAGE_HISTORY) }] : [];
    return [200, { id: channel, type: 0, guild_id: this.guildId, name: 'papers', position: 0, permission_overwrites: overwrites, nsfw: false, last_message_id: last, rate_limit_per_user: 0, parent_id: null }];
  }

  /** GET /guilds/{id}: the server, owned by someone else, with @everyone's default permissions and the bot's role. */
  private guild(id: string): unknown {
    const roles = [
      { id, name: '@everyone', permissions: String(EVERYONE_PERMISSIONS), position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 },
      { id: this.botRoleId, name: 'Paper Scout', permissions: String(BOT_ROLE_PERMISSIONS), position: 1, color: 0, hoist: false, managed: true, mentionable: false, flags: 0, tags: { bot_id: this.botUser.id } },
    ];
    return { id, name: 'Lab', owner_id: '1190000000000000777', preferred_locale: this.guildLocales.get(id) ?? 'en-US', features: [], roles };
  }

  /** GET /channels/{id}/messages/{id}: which, unlike the list, is a 403 without Read Message History. */
  private oneMessage(channel: string, id: string): [number, unknown] {
    if (this.historyHidden.has(channel)) return [403, { message: 'Missing Access', code: 50001 }];
    const message = this.messagesIn(channel).find((m) => m.id === id);
    return message ? [200, this.messageObject(message)] : [404, { message: 'Unknown Message', code: 10008 }];
  }

  /** A channel message as Discord's API returns it (history has no nonce). */
  private messageObject(m: ChannelMessage): any {
    return {
      id: m.id,
      channel_id: m.channel,
      type: 0,
      author: m.author ?? this.botUser,
      content: m.body?.content ?? '',
      embeds: m.body?.embeds ?? [],
      components: m.body?.components ?? [],
      attachments: [],
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
      timestamp: new Date(m.at).toISOString(),
      edited_timestamp: null,
      flags: 0,
    };
  }

  private callback(r: CapturedRequest): [number, unknown] {
    const interaction = this.interactions.get(r.token!);
    if (this.failCallbacks) return [this.failCallbacks.status, { message: this.failCallbacks.message, code: this.failCallbacks.code }];
    if (!interaction || performance.now() - interaction.dispatchedAt > INTERACTION_DEADLINE_MS) return [404, { message: 'Unknown interaction', code: 10062 }];
    if (interaction.acknowledged) return [400, { message: 'Interaction has already been acknowledged.', code: 40060 }];
    const type = r.body?.type;
    if (type === 4 || type === 7) r.problems = messageProblems(r.body.data ?? {}, { create: type === 4, files: r.files });
    else if (type === 8) r.problems = choicesProblems(r.body.data);
    else if (type === 9) {
      // A modal answers a command or a component, never a submitted modal (or an autocomplete).
      r.problems = [...modalProblems(r.body.data), ...(interaction.payload.type === 2 || interaction.payload.type === 3 ? [] : [`type: a modal cannot answer an interaction of type ${interaction.payload.type}`])];
    } else if (type !== 5 && type !== 6) r.problems = [`type: unexpected callback type ${type}`];
    if (r.problems.length > 0) return [400, { message: 'Invalid Form Body', code: 50035, errors: r.problems }];
    interaction.acknowledged = true;
    return [204, undefined];
  }

  private message(r: CapturedRequest, kind: 'edit' | 'followup', interaction: any): [number, unknown] {
    r.kind = kind;
    r.problems = messageProblems(r.body ?? {}, { create: kind === 'followup', files: r.files });
    if (r.problems.length > 0) return [400, { message: 'Invalid Form Body', code: 50035, errors: r.problems }];
    const body = r.body ?? {};
    return [
      200,
      {
        id: kind === 'edit' && interaction.message ? interaction.message.id : this.snowflake(),
        type: kind === 'edit' && interaction.type === 2 ? 20 : 0,
        channel_id: interaction.channel?.id ?? interaction.channel_id,
        author: this.botUser,
        content: body.content ?? '',
        embeds: body.embeds ?? [],
        components: body.components ?? [],
        attachments: r.files.map((f) => this.attachmentObject(f)),
        mentions: [],
        mention_roles: [],
        mention_everyone: false,
        pinned: false,
        tts: false,
        timestamp: new Date(this.now()).toISOString(),
        edited_timestamp: kind === 'edit' ? new Date(this.now()).toISOString() : null,
        flags: body.flags ?? 0,
        application_id: this.applicationId,
        webhook_id: this.applicationId,
      },
    ];
  }

  /** An attachment as Discord's message object lists it. */
  private attachmentObject(file: CapturedFile): any {
    const id = this.snowflake();
    return { id, filename: file.name, size: file.bytes, url: `https://cdn.discordapp.com/attachments/0/${id}/${encodeURIComponent(file.name)}`, proxy_url: `https://media.discordapp.net/attachments/0/${id}/${encodeURIComponent(file.name)}`, content_type: file.contentType || undefined };
  }

  /**
   * A member posts `content` in a server channel: the message is kept, and MESSAGE_CREATE is
   * dispatched as Discord sends it: only to connections that identified with the GuildMessages
   * intent, with its content only to those that also have MessageContent (empty otherwise, as
   * Discord does).
   */
  memberPost(channel: string, content: string, options: { author?: any; extra?: Record<string, unknown> } = {}): ChannelMessage {
    const author = options.author ?? { id: '1190000000000000400', username: 'ada', discriminator: '0', global_name: 'Ada Lovelace', avatar: null, public_flags: 0 };
    const message = this.addMessage(channel, content, author);
    const data = {
      ...this.messageObject(message),
      guild_id: this.guildId,
      member: { roles: [], nick: null, joined_at: '2024-03-01T12:00:00.000000+00:00', deaf: false, mute: false, flags: 0 },
      ...options.extra,
    };
    this.dispatch('MESSAGE_CREATE', data, (intents) => {
      if ((intents & GUILD_MESSAGES_INTENT) === 0) return undefined;
      return { ...data, content: (intents & MESSAGE_CONTENT_INTENT) === 0 ? '' : content };
    });
    return message;
  }

  /** Bulk overwrite: commands with the same name keep their id, as on Discord. */
  private overwrite(scope: string, body: any[], guildId: string | undefined): any[] {
    const before = new Map((this.commands.get(scope) ?? []).map((c) => [c.name, c]));
    const saved = body.map((c) => ({
      id: before.get(c.name)?.id ?? this.snowflake(),
      application_id: this.applicationId,
      version: this.snowflake(),
      default_member_permissions: null,
      type: 1,
      dm_permission: true,
      nsfw: false,
      integration_types: [0],
      contexts: null,
      ...(guildId && { guild_id: guildId }),
      ...c,
    }));
    this.commands.set(scope, saved);
    return saved;
  }
}

/**
 * A request body: JSON, or multipart/form-data as discord.js sends files (the JSON in
 * `payload_json`, each file in `files[n]`).
 */
async function readBody(raw: Buffer, contentType: string | undefined): Promise<{ body: any; files: CapturedFile[] }> {
  if (!contentType?.startsWith('multipart/form-data')) return { body: raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined, files: [] };
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  const files: CapturedFile[] = [];
  let body: any;
  for (const [field, value] of form.entries()) {
    if (field === 'payload_json' && typeof value === 'string') body = JSON.parse(value);
    else if (typeof value !== 'string') {
      const bytes = Buffer.from(await value.arrayBuffer());
      files.push({ field, name: value.name, contentType: value.type, content: bytes.toString('utf8'), bytes: bytes.length });
    }
  }
  return { body, files };
}

/**
 * The shard Discord sends a server's events to.
 * @example shardOf('1190000000000000100', 2)
 */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/** A command as Discord returns it without `with_localizations`: the dictionaries left out, everywhere. */
function withoutLocalizations(value: any): any {
  if (Array.isArray(value)) return value.map(withoutLocalizations);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'name_localizations' && k !== 'description_localizations').map(([k, v]) => [k, withoutLocalizations(v)]));
}
