/**
 * The Discord adapter: a discord.js client over the gateway (no public URL needed) that
 * answers Paper Scout's slash commands, buttons, menus and autocomplete. Commands are
 * registered separately, with `npm run deploy:discord`.
 *
 * discord.js resumes a dropped gateway connection by itself; when the gateway closes for good
 * (a revoked token, say), `down` resolves and whoever started the adapter may start a new one.
 */
import { once } from 'node:events';
import { Client, Events, GatewayCloseCodes, GatewayIntentBits, Options, Routes } from 'discord.js';
import type { Logger } from 'pino';
import type { App } from '../../src/app.js';
import type { DiscordConfig } from '../../src/config.js';
import { StartError, describeCause, isNetworkFailure, type ConnectionState, type RunningAdapter } from '../adapter.js';
import { archiveMessages } from './archive.js';
import { WITH_LOCALIZATIONS, commandDefinitions, diffCommands } from './commands.js';
import { createDiscordSender } from './digestSender.js';
import { guardGateway } from './gateway.js';
import { handleInteractions, type InteractionOptions } from './interactions.js';

/** Discord's REST API unless DISCORD_API_URL says otherwise. */
export const DISCORD_API_URL = 'https://discord.com/api';

/** Gateway close codes after which reconnecting with the same settings cannot help. */
const REFUSING_CLOSE_CODES = new Set<number>([GatewayCloseCodes.AuthenticationFailed, GatewayCloseCodes.InvalidIntents, GatewayCloseCodes.DisallowedIntents]);

export interface DiscordOptions extends InteractionOptions {
  /** Aborting gives up a start under way: the client is destroyed and the start rejects. */
  signal?: AbortSignal;
}

/**
 * Connects to Discord and answers interactions until stopped. Resolves once the gateway says
 * READY; rejects with a {@link StartError} (the client destroyed) when Discord cannot be reached
 * or refuses the token.
 * @example const discord = await startDiscord(app, config.discord); … await discord.stop();
 */
export async function startDiscord(app: App, config: DiscordConfig, options: DiscordOptions = {}): Promise<RunningAdapter> {
  const log = app.log.child({ adapter: 'discord' });
  const api = config.apiUrl ?? DISCORD_API_URL;
  const client = new Client({
    // Interactions arrive without any intent; Guilds is the minimum discord.js expects. Reading
    // channels' messages for their archive takes two more, one of them privileged.
    intents: config.messageContent ? [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent] : [GatewayIntentBits.Guilds],
    // Messages are read once, for their links: none is kept in memory.
    ...(config.messageContent && { makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 0 }) }),
    allowedMentions: { parse: [], repliedUser: false },
    ...(config.apiUrl && { rest: { api: config.apiUrl } }),
    // Several instances: Discord routes each server's events to shard (guild_id >> 22) % count.
    ...(config.shards && { shardCount: config.shards.count, ...(config.shards.ids && { shards: config.shards.ids }) }),
  });
  // Before login: no gateway payload may reach discord.js unguarded.
  handleInteractions(client, app, guardGateway(client, log), options);
  if (config.messageContent) archiveMessages(client, app, log, options.track);

  let state: ConnectionState = 'connected';
  let closing = false;
  let markDown: (err: Error) => void = () => undefined;
  const down = new Promise<Error>((resolve) => (markDown = resolve));
  client.on(Events.Error, (err) => log.error({ err }, 'Discord client error'));
  client.on(Events.Warn, (message) => log.warn({ message }, 'Discord client warning'));
  client.on(Events.ShardReconnecting, (shard) => {
    if (closing) return;
    state = 'reconnecting';
    log.warn({ shard }, 'Discord gateway connection lost; reconnecting');
  });
  client.on(Events.ShardResume, (shard) => {
    state = 'connected';
    log.info({ shard }, 'Discord gateway resumed');
  });
  client.on(Events.ShardReady, () => (state = 'connected'));
  // discord.js emits this only when it will not reconnect by itself.
  client.on(Events.ShardDisconnect, (event, shard) => {
    if (closing) return;
    log.warn({ code: event.code, shard }, 'Discord gateway closed the connection for good');
    markDown(new Error(`the Discord gateway closed the connection (code ${event.code})`));
  });

  const ready = once(client, Events.ClientReady);
  const closed = once(client, Events.ShardDisconnect);
  const aborted = new Promise<never>((_, reject) => {
    const { signal } = options;
    if (!signal) return;
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('connection attempt abandoned'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // Awaited below; only the race's winner matters.
  for (const p of [ready, closed, aborted]) p.catch(() => undefined);
  try {
    await Promise.race([client.login(config.token), aborted]);
    await Promise.race([
      ready,
      aborted,
      closed.then((args: unknown[]) => {
        const code = (args[0] as { code?: number } | undefined)?.code;
        throw Object.assign(new Error(`the gateway closed the connection with code ${code}`), { closeCode: code });
      }),
    ]);
  } catch (err) {
    closing = true;
    await client.destroy();
    throw startFailure(err, api, config);
  }
  log.info({ user: client.user?.tag, application: client.application?.id, api, shards: client.options.shards, shardCount: client.options.shardCount }, 'connected to Discord');
  await warnIfCommandsDiffer(client, app, config, log);
  return {
    name: 'discord',
    sender: createDiscordSender(config),
    down,
    state: () => state,
    async stopAccepting() {
      // Interactions (and messages) that arrive from now on go unanswered; those under way finish.
      client.removeAllListeners(Events.InteractionCreate);
      client.removeAllListeners(Events.Raw);
    },
    async stop() {
      closing = true;
      await client.destroy();
      log.info('disconnected from Discord');
    },
  };
}

/** A start failure said as what to do: the network, or the token and where to get one. */
function startFailure(err: unknown, api: string, config: DiscordConfig): StartError {
  if (err instanceof StartError) return err; // the supervisor gave up waiting
  const { code, status, closeCode } = (err ?? {}) as { code?: unknown; status?: unknown; closeCode?: unknown };
  const cause = describeCause(err);
  const where = config.apiUrl ? ` (DISCORD_API_URL ${config.apiUrl})` : '';
  if (code === 'TokenInvalid' || status === 401 || closeCode === GatewayCloseCodes.AuthenticationFailed) {
    return new StartError('refused', `Discord did not accept DISCORD_TOKEN${where}: ${cause}. Copy the bot token from the Discord developer portal (Bot → Reset Token).`, { cause: err });
  }
  // @discordjs/ws rejects the login with its own words for the close code, before any disconnect event.
  const disallowed = closeCode === GatewayCloseCodes.DisallowedIntents || (err instanceof Error && err.message === 'Used disallowed intents');
  if (disallowed && config.messageContent) {
    return new StartError(
      'refused',
      `Discord refused the gateway connection (${cause}): DISCORD_MESSAGE_CONTENT=on needs the Message Content intent. Enable it in the developer portal (Bot → Privileged Gateway Intents), or set DISCORD_MESSAGE_CONTENT=off.`,
      { cause: err },
    );
  }
  if (typeof closeCode === 'number' && REFUSING_CLOSE_CODES.has(closeCode)) {
    return new StartError('refused', `Discord refused the gateway connection (${cause}): check the bot's privileged intents in the developer portal.`, { cause: err });
  }
  if (isNetworkFailure(err)) {
    return new StartError('unreachable', `could not reach Discord at ${api} (${cause}). Check the network${config.apiUrl ? ' and DISCORD_API_URL' : ''}.`, { cause: err });
  }
  return new StartError('failed', `Discord: could not connect (${cause}). Check DISCORD_TOKEN${where}.`, { cause: err });
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
