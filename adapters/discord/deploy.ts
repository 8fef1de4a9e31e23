/**
 * `npm run deploy:discord`: registers Paper Scout's slash commands with Discord, to the server
 * DISCORD_GUILD_ID when set (instant) or globally (Discord may take up to an hour to show
 * them), with one bulk overwrite. It first compares with what is registered and prints what
 * changes; when nothing does, it writes nothing.
 */
import { pathToFileURL } from 'node:url';
import { type REST, Routes } from 'discord.js';
import { COMMANDS } from '../../src/commands/registry.js';
import type { DiscordConfig } from '../../src/config.js';
import { bootstrap } from '../../src/bootstrap.js';
import { WITH_LOCALIZATIONS, commandDefinitions, diffCommands, formatDiff, type CommandDiff } from './commands.js';
import { createDiscordRest } from './digestSender.js';

export interface DeployResult {
  applicationId: string;
  /** The guild the commands went to, or undefined for global commands. */
  guildId?: string;
  diff: CommandDiff;
  /** Whether the commands were written (false when nothing changed). */
  written: boolean;
}

/**
 * Compares the registry's commands with Discord's and overwrites them when they differ,
 * reporting each step through `print`.
 * @example await deployCommands(config.discord, (line) => console.log(line))
 */
export async function deployCommands(config: DiscordConfig, print: (line: string) => void): Promise<DeployResult> {
  const rest = createDiscordRest(config);
  const applicationId = config.applicationId ?? (await currentApplicationId(rest));
  const route = config.guildId ? Routes.applicationGuildCommands(applicationId, config.guildId) : Routes.applicationCommands(applicationId);
  const where = config.guildId ? `server ${config.guildId}` : 'all servers (global; Discord may take up to an hour to show changes)';
  const definitions = commandDefinitions(COMMANDS);
  // With their localizations, which are part of a definition (without this Discord leaves them out).
  const registered = (await rest.get(route, { query: WITH_LOCALIZATIONS })) as unknown[];
  const diff = diffCommands(definitions, registered);
  print(`Commands of application ${applicationId} in ${where}:`);
  for (const line of formatDiff(diff)) print(`  ${line}`);
  if (diff.added.length + diff.changed.length + diff.removed.length === 0) {
    print('Nothing to change.');
    return { applicationId, ...(config.guildId && { guildId: config.guildId }), diff, written: false };
  }
  await rest.put(route, { body: definitions });
  print(`Registered ${definitions.length} commands: ${diff.added.length} new, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged.length} unchanged.`);
  return { applicationId, ...(config.guildId && { guildId: config.guildId }), diff, written: true };
}

async function currentApplicationId(rest: REST): Promise<string> {
  try {
    const app = (await rest.get(Routes.currentApplication())) as { id: string };
    return app.id;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`could not read the application id with DISCORD_TOKEN (${reason}); check the token or set DISCORD_APPLICATION_ID`, { cause: err });
  }
}

async function main(): Promise<void> {
  const { config } = bootstrap({ LOG_LEVEL: 'warn' });
  if (!config.discord) {
    process.stderr.write(
      'deploy:discord: DISCORD_TOKEN is not set. Copy the bot token from the Discord developer portal (Bot → Reset Token) into .env or the environment; see docs/discord.md.\n',
    );
    process.exit(2);
  }
  await deployCommands(config.discord, (line) => process.stdout.write(`${line}\n`));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`deploy:discord: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
