/**
 * A channel's archive from members' messages, DISCORD_MESSAGE_CONTENT: off by default, the bot
 * asks Discord for no message intent at all and records nothing members post; on, it asks for
 * GuildMessages and the privileged MessageContent, records a member's paper links once per
 * message (with who posted them), ignores bots' and webhooks' messages and channels whose archive
 * is off; a portal that does not grant the intent stops start-up with what to do.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StartError } from '../../../adapters/adapter.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeDiscord } from './fakeDiscord.js';
import { startBot, type Bot } from './harness.js';
import { slashCommand } from './payloads.js';

const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.dispose());

const archived = async (fake: FakeDiscord, channel: string) => (await app.stores.readingLists.archive('discord', fake.guildId, channel, { offset: 0, limit: 10 })).entries;

describe('DISCORD_MESSAGE_CONTENT', () => {
  let bot: Bot | undefined;
  const tracked: Array<Promise<void>> = [];
  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
  });

  it('off (the default): asks for no message intent, and a link a member posts is not recorded', async () => {
    bot = await startBot(app);
    const intents = Number(bot.fake.identifies[0].intents);
    expect(intents & (GUILD_MESSAGES | MESSAGE_CONTENT)).toBe(0);
    bot.fake.memberPost('1190000000000006001', 'https://arxiv.org/abs/1706.03762');
    expect(bot.fake.dispatched.at(-1)).toMatchObject({ event: 'MESSAGE_CREATE', shard: undefined });
    // A command after it is answered: had the message been read, it would have been first.
    await bot.fake.interact(slashCommand(bot.fake, 'help', {}));
    expect(await archived(bot.fake, '1190000000000006001')).toEqual([]);
  });

  it('on: records a member’s paper links once per message, with who posted them; not bots’, not webhooks’, not where the archive is off', async () => {
    bot = await startBot(app, { messageContent: true, track: (p) => void tracked.push(p) });
    expect(Number(bot.fake.identifies[0].intents) & (GUILD_MESSAGES | MESSAGE_CONTENT)).toBe(GUILD_MESSAGES | MESSAGE_CONTENT);
    const channel = '1190000000000006002';
    const post = async (text: string, options: Parameters<FakeDiscord['memberPost']>[2] = {}) => {
      bot!.fake.memberPost(channel, text, options);
      await bot!.fake.interact(slashCommand(bot!.fake, 'help', {}));
      await Promise.all(tracked);
    };
    await post('read <https://arxiv.org/abs/1706.03762> and [BERT](https://arxiv.org/abs/1810.04805), not https://example.org/x');
    await post('bot: https://arxiv.org/abs/2006.11239', { author: { id: '1190000000000000990', username: 'otherbot', bot: true } });
    await post('hook: https://arxiv.org/abs/2006.11239', { extra: { webhook_id: '1190000000000000991' } });
    const entries = await archived(bot.fake, channel);
    expect(entries.map((e) => e.paperId).sort()).toEqual(['arxiv:1706.03762', 'arxiv:1810.04805']);
    expect(entries[0]!.firstSharedBy).toEqual({ id: '1190000000000000400', name: 'Ada Lovelace' });

    await app.stores.readingLists.setArchiving('discord', bot.fake.guildId, channel, false, { id: '1' }, new Date());
    await post('https://arxiv.org/abs/2006.11239');
    expect(await archived(bot.fake, channel)).toHaveLength(2);
  });

  it('on, where the developer portal does not grant Message Content: start-up stops, saying what to do', async () => {
    const fake = await FakeDiscord.start();
    fake.messageContentEnabled = false;
    try {
      const started = startBot(app, { fake, messageContent: true });
      await expect(started).rejects.toBeInstanceOf(StartError);
      await expect(started).rejects.toThrow(/DISCORD_MESSAGE_CONTENT=on needs the Message Content intent\. Enable it in the developer portal \(Bot → Privileged Gateway Intents\), or set DISCORD_MESSAGE_CONTENT=off\./);
    } finally {
      await fake.close();
    }
  });
});
