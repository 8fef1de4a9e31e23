/**
 * From discord.js interactions to core calls and back. A slash command runs its command; a
 * button or a menu choice runs its action handle and updates the message it sits on (an
 * ephemeral answer, such as "these results have expired", comes as a new private message
 * instead); autocomplete answers with the core's suggestions. A command with a form (`/paper`,
 * whose `like` text is a pasted abstract) opens it as a modal when typed bare, as does a button
 * carrying the form's handle; the submitted modal runs the command with its text (modal.ts).
 * Every answer goes out within Discord's 3 s: at once when the core is quick, otherwise deferred
 * first and edited after; a modal is opened at once (it cannot follow a deferral).
 */
import {
  Events,
  MessageFlags,
  PermissionFlagsBits,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type Interaction,
  type InteractionEditReplyOptions,
  type InteractionReplyOptions,
  type InteractionUpdateOptions,
  type MessageComponentInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { App } from '../../src/app.js';
import type { Choice, CommandContext } from '../../src/commands/types.js';
import { apology, errorReference } from '../../src/errors.js';
import { messages } from '../../src/i18n/index.js';
import { messageReply, type Reply } from '../../src/reply.js';
import type { GatewayGuard } from './gateway.js';
import type { Place } from './incoming.js';
import { AUTOCOMPLETE_CHOICES_MAX, CHOICE_NAME_MAX, CHOICE_VALUE_MAX } from './limits.js';
import { plain } from './markdown.js';
import { renderModal, submittedText } from './modal.js';
import { renderMessage, type DiscordMessage } from './render.js';

type FileOptions = Pick<InteractionReplyOptions, 'files'>;

/** How long the core may take before the answer is deferred (Discord allows 3 s in all). */
export const DEFER_AFTER_MS = 1500;

export interface InteractionOptions {
  /** Defer when the core has not answered after this many milliseconds. */
  deferAfterMs?: number;
  /** Told of each interaction's answering, start to finish (a shutdown waits for them). */
  track?: (answering: Promise<void>) => void;
}

/**
 * Answers every interaction the client receives, with where it happened as the gateway guard
 * noted it.
 */
export function handleInteractions(client: Client, app: App, gateway: GatewayGuard, options: InteractionOptions = {}): void {
  const deferAfterMs = options.deferAfterMs ?? DEFER_AFTER_MS;
  client.on(Events.InteractionCreate, (interaction) => {
    const place = gateway.takePlace(interaction.id);
    const answering = answerInteraction(app, interaction, deferAfterMs, place).catch((err: unknown) => app.log.error({ err, platform: 'discord' }, 'Discord: an interaction failed outside its handler'));
    options.track?.(answering);
  });
}

/** Answers one interaction; never throws (failures are logged with their cause). */
export async function answerInteraction(app: App, interaction: Interaction, deferAfterMs: number = DEFER_AFTER_MS, place: Place = {}): Promise<void> {
  const started = performance.now();
  const log = app.log.child({ platform: 'discord', interaction: interaction.id, user: interaction.user.id });
  try {
    const ctx = contextOf(app, interaction, place);
    if (interaction.isAutocomplete()) {
      await interaction.respond(discordChoices(autocomplete(app, ctx, interaction)));
    } else if (interaction.isChatInputCommand()) {
      const subcommand = interaction.options.getSubcommand(false) ?? undefined;
      // The bare command (no option given, as `/paper` alone) opens its form, if it has one.
      const form = subcommand === undefined && interaction.options.data.length === 0 ? app.registry.formOf(interaction.commandName, ctx.i18n) : undefined;
      if (form) await interaction.showModal(renderModal(form));
      else await answer(interaction, () => app.registry.run(ctx, interaction.commandName, optionsOf(interaction), subcommand), deferAfterMs, log);
    } else if (interaction.isButton()) {
      // discord.js passes custom_id and values on as the payload had them: the registry refuses
      // anything but a handle it knows (no text included) as a button that does nothing here.
      const form = app.registry.formAt(interaction.customId, ctx.i18n);
      if (form) await interaction.showModal(renderModal(form));
      else await answer(interaction, () => app.registry.act(ctx, interaction.customId), deferAfterMs, log);
    } else if (interaction.isModalSubmit()) {
      // Its custom_id is the form's handle; anything else is a dialog that no longer does anything here.
      await answer(interaction, () => app.registry.submit(ctx, interaction.customId, submittedText(interaction)), deferAfterMs, log);
    } else if (interaction.isStringSelectMenu()) {
      const values: unknown = interaction.values;
      await answer(interaction, () => app.registry.act(ctx, Array.isArray(values) ? values[0] : undefined), deferAfterMs, log);
    } else {
      return;
    }
    log.debug({ ms: Math.round(performance.now() - started) }, 'Discord interaction answered');
  } catch (err) {
    // Only Discord itself can fail here (the core's errors are replies): log it, tell the user if we still can.
    const reference = errorReference();
    log.error({ err, reference, kind: interaction.type }, 'Discord: could not answer an interaction');
    if (!interaction.isRepliable() || interaction.replied) return;
    const m = messages(interaction.locale);
    const sorry = forCreate(renderMessage(messageReply(apology(reference, m), { ephemeral: true, locale: m.locale })));
    await (interaction.deferred ? interaction.followUp(sorry) : interaction.reply(sorry)).catch(() => undefined);
  }
}

/**
 * What a command gets to know about the user and the place: the member's locale (Discord sends
 * it with every interaction), channel (and what kind), server and its default locale, whether
 * the member may manage the channel, and what the bot may do there.
 */
function contextOf(app: App, interaction: Interaction, place: Place): CommandContext {
  const canManageChannel = interaction.memberPermissions?.has(PermissionFlagsBits.ManageChannels);
  // discord.js reads the channel id only from a `channel` object; Discord may send just `channel_id`.
  const channelId = interaction.channelId ?? place.channelId;
  return app.context(
    'discord',
    { id: interaction.user.id, name: displayName(interaction) },
    {
      locale: interaction.locale,
      ...(channelId && { channel: { id: channelId, ...(place.name && { name: place.name }), ...(place.kind && { kind: place.kind }) } }),
      ...(place.bot && { bot: place.bot }),
      ...(interaction.guildId && { workspace: { id: interaction.guildId, ...(interaction.guildLocale && { locale: interaction.guildLocale }) } }),
      ...(canManageChannel !== undefined && { member: { canManageChannel } }),
    },
  );
}

/** The member's name as the server shows it: their nickname there, else their display name. */
function displayName(interaction: Interaction): string {
  const member = interaction.member;
  const nick = member && 'nick' in member && typeof member.nick === 'string' ? member.nick : undefined;
  return nick || interaction.user.globalName || interaction.user.username;
}

function optionsOf(interaction: ChatInputCommandInteraction): Record<string, unknown> {
  const top = interaction.options.data;
  // A subcommand's options are nested one level down.
  const data = top.length === 1 && top[0]!.options ? top[0]!.options : top;
  return Object.fromEntries(data.filter((o) => o.value !== undefined).map((o) => [o.name, o.value]));
}

function autocomplete(app: App, ctx: CommandContext, interaction: AutocompleteInteraction): Choice[] {
  const focused = interaction.options.getFocused(true);
  return app.registry.autocomplete(ctx, interaction.commandName, focused.name, String(focused.value));
}

/**
 * Core suggestions as Discord choices: at most 25, names shortened to 100 characters, values
 * (which mean something) dropped rather than cut when too long, no duplicates.
 * @example discordChoices([{ name: 'Attention Is All You Need', value: 'doc:0' }])
 */
export function discordChoices(choices: readonly Choice[]): Choice[] {
  const seen = new Set<string>();
  const out: Choice[] = [];
  for (const choice of choices) {
    const name = plain(choice.name, CHOICE_NAME_MAX);
    if (!name || !choice.value || choice.value.length > CHOICE_VALUE_MAX || seen.has(choice.value)) continue;
    seen.add(choice.value);
    out.push({ name, value: choice.value });
    if (out.length === AUTOCOMPLETE_CHOICES_MAX) break;
  }
  return out;
}

type Answerable = ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;
const LATE = Symbol('late');

/**
 * Runs the core and answers: at once when it is done within `deferAfterMs`, else defers (so
 * Discord shows "thinking…") and edits the answer in when it comes.
 */
async function answer(interaction: Answerable, run: () => Promise<Reply>, deferAfterMs: number, log: App['log']): Promise<void> {
  const deadline = timer(deferAfterMs); // started before the core runs
  const work = run();
  const early = await Promise.race([work, deadline.late]).finally(deadline.clear);
  if (early !== LATE) return send(interaction, early, false, log);
  if (interaction.isMessageComponent()) await interaction.deferUpdate();
  else await interaction.deferReply();
  log.info({ deferAfterMs }, 'Discord: the core was slow, answer deferred');
  return send(interaction, await work, true, log);
}

async function send(interaction: Answerable, reply: Reply, deferred: boolean, log: App['log']): Promise<void> {
  const message = render(reply, log);
  const inPlace = interaction.isMessageComponent();
  if (!deferred) {
    if (inPlace && !reply.ephemeral) await interaction.update(forEdit(message));
    else await interaction.reply(forCreate(message));
    return;
  }
  if (!reply.ephemeral) {
    await interaction.editReply(forEdit(message));
    return;
  }
  // A deferred public answer cannot turn private: replace it with a private follow-up.
  if (!inPlace) await interaction.deleteReply();
  await interaction.followUp(forCreate(message));
}

/** The reply rendered; a renderer failure becomes an apology with a reference. */
function render(reply: Reply, log: App['log']): DiscordMessage {
  try {
    return renderMessage(reply);
  } catch (err) {
    const reference = errorReference();
    log.error({ err, reference, fallback: reply.fallback.slice(0, 200) }, 'Discord: could not render a reply');
    const m = messages(reply.locale);
    return renderMessage(messageReply(apology(reference, m), { ephemeral: true, locale: m.locale }));
  }
}

/** A new message (reply, follow-up). */
function forCreate(message: DiscordMessage): InteractionReplyOptions {
  return {
    ...(message.content !== undefined && { content: message.content }),
    embeds: message.embeds,
    components: message.components,
    allowedMentions: message.allowed_mentions,
    ...(message.flags !== undefined && { flags: MessageFlags.Ephemeral }),
    ...filesOf(message),
  };
}

/** A message replaced in place: content cleared when the new one has none. */
function forEdit(message: DiscordMessage): InteractionUpdateOptions & InteractionEditReplyOptions {
  return { content: message.content ?? '', embeds: message.embeds, components: message.components, allowedMentions: message.allowed_mentions, ...filesOf(message) };
}

/** The message's files as discord.js sends them: multipart, `files[0]` beside `payload_json`. */
function filesOf(message: DiscordMessage): FileOptions {
  if (!message.files?.length) return {};
  return { files: message.files.map((f) => ({ attachment: Buffer.from(f.content, 'utf8'), name: f.name })) };
}

function timer(ms: number): { late: Promise<typeof LATE>; clear: () => void } {
  let handle: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => (handle = setTimeout(() => resolve(LATE), ms)));
  return { late, clear: () => clearTimeout(handle) };
}
