/**
 * The Discord adapter started for real (discord.js, its REST client and gateway connection)
 * against a {@link FakeDiscord}, with helpers to read the bot's answers.
 */
import { expect } from 'vitest';
import { startDiscord } from '../../../adapters/discord/index.js';
import type { InteractionOptions } from '../../../adapters/discord/interactions.js';
import type { RunningAdapter } from '../../../adapters/adapter.js';
import type { App } from '../../../src/app.js';
import { FakeDiscord, type CapturedRequest } from './fakeDiscord.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface Bot {
  fake: FakeDiscord;
  adapter: RunningAdapter;
  stop(): Promise<void>;
}

/**
 * Starts a fake Discord (unless given one) and the adapter connected to it; `messageContent`:
 * as DISCORD_MESSAGE_CONTENT=on.
 */
export async function startBot(app: App, options: InteractionOptions & { fake?: FakeDiscord; messageContent?: boolean } = {}): Promise<Bot> {
  const fake = options.fake ?? (await FakeDiscord.start());
  const adapter = await startDiscord(app, { token: fake.token, apiUrl: fake.apiUrl, ...(options.messageContent && { messageContent: true }) }, options);
  return {
    fake,
    adapter,
    async stop() {
      await adapter.stop();
      if (!options.fake) await fake.close();
    },
  };
}

/** The message a callback, an edit or a follow-up carries. */
export function messageOf(request: CapturedRequest): any {
  return request.kind === 'callback' ? request.body.data : request.body;
}

/** The button whose label matches. */
export function button(message: any, label: RegExp): any {
  const found = (message.components ?? []).flatMap((row: any) => row.components).find((c: any) => c.type === 2 && label.test(c.label));
  if (!found) throw new Error(`no button ${label} in ${JSON.stringify(message.components)}`);
  return found;
}

/** The option values of the message's select menu. */
export function menuValues(message: any): string[] {
  const select = (message.components ?? []).flatMap((row: any) => row.components).find((c: any) => c.type === 3);
  return select ? select.options.map((o: any) => o.value) : [];
}

/**
 * What must hold for every request the bot made: Discord accepted it (no limit broken), and
 * every message it sent or edited allows no mentions.
 */
export function expectWellBehaved(fake: FakeDiscord): void {
  for (const r of fake.requests) {
    expect(r.problems, `${r.method} ${r.path}`).toEqual([]);
    const carriesMessage = (r.kind === 'callback' && (r.body.type === 4 || r.body.type === 7)) || r.kind === 'edit' || r.kind === 'followup';
    if (carriesMessage) expect(messageOf(r).allowed_mentions, `${r.method} ${r.path}`).toEqual({ parse: [] });
  }
}
