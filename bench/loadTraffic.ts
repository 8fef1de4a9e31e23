/**
 * The load run's traffic: the commands people send, over Discord (INTERACTION_CREATE on the
 * loopback gateway, answered by discord.js in the bot's process) and Slack (requests signed as
 * Slack signs them, answered through Bolt on response_url), each timed from sending to the
 * answer and judged: an answer, a "busy" or "being rebuilt" answer, or an error.
 */
import { messages } from '../src/i18n/index.js';

const en = messages('en');
const BUSY_MESSAGE = en.t('error.busy');
const INDEX_REBUILDING = en.t('error.indexRebuilding');
const PAGING_UNAVAILABLE = en.t('paper.pagingUnavailable');
import type { CapturedRequest, FakeDiscord } from '../test/adapters/discord/fakeDiscord.js';
import { autocomplete, botMessage, buttonClick, menuChoice, slashCommand } from '../test/adapters/discord/payloads.js';
import type { FakeSlack, Json } from '../test/adapters/slack/fakeSlack.js';
import { clickPayload, fixture, send } from '../test/adapters/slack/harness.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

export type Platform = 'discord' | 'slack';

export interface Outcome {
  platform: Platform;
  kind: string;
  /** performance.now() when it was sent. */
  sentAt: number;
  /** Milliseconds until the answer arrived (Infinity when none did). */
  ms: number;
  /** Why it counts as failed. */
  error?: string;
  /** Answered, but only to say the library is busy or being rebuilt. */
  degraded?: string;
}

/** After this long without an answer a command counts as failed (Discord gives up after 3 s). */
const ANSWER_TIMEOUT_MS = 10_000;
/** Slack's deadline for the acknowledgement. */
const ACK_DEADLINE_MS = 3000;
const APOLOGY = /Sorry, something went wrong/;
const DEGRADED: Array<[string, string]> = [
  [BUSY_MESSAGE, 'busy'],
  [INDEX_REBUILDING, 'index rebuilding'],
  [PAGING_UNAVAILABLE, 'no paging'],
];
/** Result messages kept to click Next and open papers on. */
const POOL = 40;

/** Each platform's mix: command kinds and their weights. */
const MIX: Record<Platform, Array<[string, number]>> = {
  discord: [['paper', 35], ['next', 15], ['open', 10], ['autocomplete', 25], ['topic', 10], ['help', 5]],
  slack: [['paper', 45], ['next', 20], ['open', 15], ['topic', 10], ['digest list', 5], ['help', 5]],
};

export interface TrafficOptions {
  discord: FakeDiscord;
  slack: FakeSlack;
  /** The bot's /slack/events URL. */
  slackUrl: string;
  queries: readonly string[];
  prefixes: readonly string[];
  topics: readonly string[];
  /** How long the fakes' routers stay installed (the whole run). */
  horizonMs: number;
}

export class Traffic {
  private readonly discordWaiters = new Map<string, (r: CapturedRequest) => void>();
  private readonly slackWaiters = new Map<string, (post: Json, at: number) => void>();
  private slackSeen = 0;
  private stopped = false;
  private readonly discordPages: any[] = [];
  private readonly slackPages: Json[] = [];
  private seed = 0x5eed;
  private n = 0;

  constructor(private readonly o: TrafficOptions) {}

  /** Routes the fakes' captured requests to the commands waiting for them (one router each, O(1) a request). */
  start(): void {
    void this.o.discord
      .waitFor((r) => {
        if (r.token) this.discordWaiters.get(r.token)?.(r);
        return false;
      }, this.o.horizonMs)
      .catch(() => undefined);
    void this.o.slack
      .until(() => {
        const posts = this.o.slack.posts;
        for (; this.slackSeen < posts.length; this.slackSeen++) {
          const post = posts[this.slackSeen]!;
          this.slackWaiters.get(post.url)?.(post.body, post.at);
        }
        return this.stopped;
      }, 'the end of the load run', this.o.horizonMs)
      .catch(() => undefined);
  }

  stop(): void {
    this.stopped = true;
  }

  /** Sends the next command of the mix: platforms alternate, kinds by weight. */
  next(): Promise<Outcome> {
    const platform: Platform = this.n++ % 2 === 0 ? 'discord' : 'slack';
    const kind = this.pick(MIX[platform]);
    return platform === 'discord' ? this.discordCommand(kind) : this.slackCommand(kind);
  }

  // ── Discord ─────────────────────────────────────────────────────────────────────────────

  private discordCommand(kind: string): Promise<Outcome> {
    const fake = this.o.discord;
    const page = this.sample(this.discordPages);
    const components = (page?.components ?? []).flatMap((row: any) => row.components);
    const nextButton = components.find((c: any) => c.type === 2 && /Next/.test(c.label ?? '') && !c.disabled);
    const select = components.find((c: any) => c.type === 3);
    if (kind === 'next' && nextButton) return this.interact('next', buttonClick(fake, nextButton.custom_id, botMessage(fake, page)));
    if (kind === 'open' && select) return this.interact('open', menuChoice(fake, select.custom_id, [this.sample(select.options as any[]).value], botMessage(fake, page)));
    if (kind === 'autocomplete') return this.interact('autocomplete', autocomplete(fake, 'paper', 'query', this.sample(this.o.prefixes)!));
    if (kind === 'topic') return this.interact('topic', slashCommand(fake, 'topic', { name: this.sample(this.o.topics)! }));
    if (kind === 'help') return this.interact('help', slashCommand(fake, 'help'));
    return this.interact('paper', slashCommand(fake, 'paper', { query: this.sample(this.o.queries)! }));
  }

  private interact(kind: string, payload: any): Promise<Outcome> {
    return new Promise((resolve) => {
      const sentAt = performance.now();
      const finish = (ms: number, body: any, error?: string) => {
        clearTimeout(timer);
        this.discordWaiters.delete(payload.token);
        const outcome: Outcome = { platform: 'discord', kind, sentAt, ms, ...(error && { error }) };
        resolve(error ? outcome : this.judge(outcome, String(body?.content ?? ''), body));
      };
      const timer = setTimeout(() => finish(Infinity, undefined, `no answer within ${ANSWER_TIMEOUT_MS / 1000} s`), ANSWER_TIMEOUT_MS);
      this.discordWaiters.set(payload.token, (r) => {
        if (r.kind === 'callback') {
          if (r.status !== 204) return finish(r.at - sentAt, undefined, `callback refused: ${r.status} ${r.problems.join('; ')}`.trim());
          if (r.body?.type === 5 || r.body?.type === 6) return; // deferred: the answer is the edit
          return finish(r.at - sentAt, r.body?.type === 8 ? { content: '' } : r.body?.data);
        }
        if (r.kind === 'edit' || r.kind === 'followup') {
          if (r.status !== 200) return finish(r.at - sentAt, undefined, `${r.kind} refused: ${r.status} ${r.problems.join('; ')}`.trim());
          finish(r.at - sentAt, r.body);
        }
      });
      this.o.discord.interactionCreate(payload);
    });
  }

  // ── Slack ───────────────────────────────────────────────────────────────────────────────

  private async slackCommand(kind: string): Promise<Outcome> {
    const page = this.sample(this.slackPages);
    const elements = ((page?.blocks ?? []) as Json[]).filter((b) => b.type === 'actions').flatMap((b) => b.elements as Json[]);
    const nextButton = elements.find((e) => e.type === 'button' && e.text?.text === 'Next ▶');
    const select = elements.find((e) => e.type === 'static_select');
    if (kind === 'next' && nextButton) return this.slackAction('next', clickPayload(nextButton));
    if (kind === 'open' && select) return this.slackAction('open', clickPayload(select, { selected: this.sample(select.options as Json[]) }));
    if (kind === 'topic') return this.slash('topic', '/topic', this.sample(this.o.topics)!);
    if (kind === 'digest list') return this.slash('digest list', '/digest', 'list');
    if (kind === 'help') return this.slash('help', '/help', '');
    return this.slash('paper', '/paper', this.sample(this.o.queries)!);
  }

  private slash(kind: string, command: string, text: string): Promise<Outcome> {
    return this.slackRequest(kind, (responseUrl) => {
      const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), command, text, response_url: responseUrl });
      return send(this.o.slackUrl, body.toString(), 'application/x-www-form-urlencoded');
    });
  }

  private slackAction(kind: string, payload: Record<string, unknown>): Promise<Outcome> {
    return this.slackRequest(kind, (responseUrl) =>
      send(this.o.slackUrl, `payload=${encodeURIComponent(JSON.stringify({ ...payload, response_url: responseUrl }))}`, 'application/x-www-form-urlencoded'),
    );
  }

  private slackRequest(kind: string, request: (responseUrl: string) => Promise<{ status: number; ms: number; sentAt: number }>): Promise<Outcome> {
    const responseUrl = this.o.slack.responseUrl();
    const sentAt = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Outcome, post?: Json) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.slackWaiters.delete(responseUrl);
        resolve(post ? this.judge(outcome, String(post.text ?? ''), post) : outcome);
      };
      const timer = setTimeout(() => finish({ platform: 'slack', kind, sentAt, ms: Infinity, error: `no answer within ${ANSWER_TIMEOUT_MS / 1000} s` }), ANSWER_TIMEOUT_MS);
      this.slackWaiters.set(responseUrl, (post, at) => finish({ platform: 'slack', kind, sentAt, ms: at - sentAt }, post));
      request(responseUrl).then(
        (ack) => {
          if (ack.status !== 200) finish({ platform: 'slack', kind, sentAt, ms: ack.ms, error: `ack ${ack.status}` });
          else if (ack.ms > ACK_DEADLINE_MS) finish({ platform: 'slack', kind, sentAt, ms: ack.ms, error: `acked after ${Math.round(ack.ms)} ms` });
        },
        (err: unknown) => finish({ platform: 'slack', kind, sentAt, ms: Infinity, error: `request failed: ${String(err)}` }),
      );
    });
  }

  // ── Judging and sampling ────────────────────────────────────────────────────────────────

  /** An apology is an error; a busy or rebuilding note is degraded; result pages join the pool. */
  private judge(outcome: Outcome, text: string, body: any): Outcome {
    if (APOLOGY.test(text)) return { ...outcome, error: 'apology (internal error)' };
    const degraded = DEGRADED.find(([message]) => text.includes(message) || JSON.stringify(body ?? '').includes(message));
    if (degraded) return { ...outcome, degraded: degraded[1] };
    if (outcome.kind === 'paper' || outcome.kind === 'next') {
      const pool = outcome.platform === 'discord' ? this.discordPages : this.slackPages;
      if (outcome.platform === 'discord' ? body?.components?.length : body?.blocks?.length) {
        pool.push(body);
        if (pool.length > POOL) pool.shift();
      }
    }
    return outcome;
  }

  private pick(weights: Array<[string, number]>): string {
    const total = weights.reduce((sum, [, w]) => sum + w, 0);
    let r = this.random() * total;
    for (const [kind, w] of weights) if ((r -= w) < 0) return kind;
    return weights[0]![0];
  }

  private sample<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[Math.floor(this.random() * items.length)];
  }

  /** mulberry32: the same traffic on every run. */
  private random(): number {
    let t = (this.seed = (this.seed + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
