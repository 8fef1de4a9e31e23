/**
 * The Discord adapter: a discord.js client over the gateway (no public URL needed) that
 * answers Paper Scout's slash commands, buttons, menus and autocomplete. Commands are
 * registered separately, with `npm run deploy:discord`.
 */
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, Routes } from 'discord.js';
import type { Logger } from 'pino';
import type { App } from '../../src/app.js';
import type { DiscordConfig } from '../../src/config.js';
import type { RunningAdapter } from '../../src/adapter.js';
import { WITH_LOCALIZATIONS, commandDefinitions, diffCommands } from './commands.js';
import { createDiscordSender } from './digestSender.js';
import { guardGateway } from './gateway.js';
import { handleInteractions, type InteractionOptions } from './interactions.js';

/**
 * Connects to Discord and answers interactions until stopped. Resolves once the gateway says
 * READY; rejects (with the client destroyed) when Discord refuses the token.
 * @example const discord = await startDiscord(app, config.discord); … await discord.stop();
 */
export async function startDiscord(app: App, config: DiscordConfig, options: InteractionOptions = {}): Promise<RunningAdapter> {
  const log = app.log.child({ adapter: 'discord' });
  const client = new Client({
    // Interactions arrive without any intent; Guilds is the minimum discord.js expects.
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [], repliedUser: false },
    ...(config.apiUrl && { rest: { api: config.apiUrl } }),
  });
  // Before login: no gateway payload may reach discord.js unguarded.
  handleInteractions(client, app, guardGateway(client, log), options);
  client.on(Events.Error, (err) => log.error({ err }, 'Discord client error'));
  client.on(Events.Warn, (message) => log.warn({ message }, 'Discord client warning'));
  client.on(Events.ShardDisconnect, (event, shard) => log.warn({ code: event.code, shard }, 'Discord gateway disconnected'));
  client.on(Events.ShardResume, (shard) => log.info({ shard }, 'Discord gateway resumed'));

  const ready = once(client, Events.ClientReady);
  ready.catch(() => undefined); // awaited below; only a failed login leaves it pending
  try {
    await client.login(config.token);
    await ready;
  } catch (err) {
    await client.destroy();
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`Discord: could not connect (${reason}). Check DISCORD_TOKEN${config.apiUrl ? ` and DISCORD_API_URL (${config.apiUrl})` : ''}.`, { cause: err });
  }
  log.info({ user: client.user?.tag, application: client.application?.id, api: config.apiUrl ?? 'https://discord.com/api' }, 'connected to Discord');
  await warnIfCommandsDiffer(client, app, config, log);
  return {
    name: 'discord',
    sender: createDiscordSender(config),
    async stop() {
      await client.destroy();
      log.info('disconnected from Discord');
    },
  };
}

/** Says so when the commands Discord shows are not this version's (a deploy was forgotten). */
async function warnIfCommandsDiffer(client: Client, app: App, config: DiscordConfig, log: Logger): Promise<void> {
  const applicationId = client.application?.id ?? config.applicationId;
  if (!applicationId) return;
  try {
    const route = config.guildId ? Routes.applicationGuildCommands(applicationId, config.guildId) : Routes.applicationCommands(applicationId);
    const diff = diffCommands(commandDefinitions(app.registry.commands), (await client.rest.get(route, { query: WITH_LOCALIZATIONS })) as unknown[]);
    if (diff.added.length + diff.changed.length + diff.removed.length > 0) {
      const changed = diff.changed.map((c) => c.name);
      log.warn({ missing: diff.added, changed, extra: diff.removed }, 'the slash commands registered with Discord differ from this version: run `npm run deploy:discord`');
    }
  } catch (err) {
    log.warn({ err }, 'could not read the slash commands registered with Discord');
  }
}
