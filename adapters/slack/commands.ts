/**
 * Slash commands (/paper, /topic, /library, /help and any other command of the registry):
 * acknowledged at once, answered through the command's response_url, only to the caller, with
 * a "Share in channel" button when the reply may be shared. A reply's file (an export) is
 * uploaded (files.ts) and the answer says where it is.
 */
import type { App as BoltApp } from '@slack/bolt';
import type { App } from '../../src/app.js';
import { deliverFile } from './files.js';
import { channelKind, channelName, encodeOrigin, fromSlackMarkup } from './incoming.js';
import { memberContext, memberInfo } from './member.js';
import { renderReply } from './render.js';

export function registerCommands(bolt: BoltApp, app: App): void {
  // Every command goes through the registry, which answers an unknown one with the list of commands.
  bolt.command(/^\/[^\s]+$/, async ({ ack, command, respond, client }) => {
    await ack();
    await afterPendingAcks();
    const name = command.command.replace(/^\//, '').toLowerCase();
    // Slack escapes & < > in the text (`year:&gt;=2021`) and may wrap links and mentions in <…>.
    const text = fromSlackMarkup(command.text ?? '');
    // The user's language and zone (a new digest's default); where the command checks who may
    // change a channel's setting (digests, the archive), whether they are an admin, asked afresh.
    const member = await memberInfo(client, command.user_id, app, { team: command.team_id, fresh: checksRole(app, name, text) });
    const ctx = app.context(
      'slack',
      { id: command.user_id, name: member.name ?? command.user_name, ...(member.timezone && { timezone: member.timezone }) },
      {
        channel: { id: command.channel_id, ...(channelName(command.channel_name) && { name: channelName(command.channel_name)! }), kind: channelKind(command.channel_id, command.channel_name) },
        workspace: { id: command.team_id },
        ...memberContext(member),
      },
    );
    const reply = await deliverFile(client, await app.registry.runText(ctx, name, text), { channel: command.channel_id, user: command.user_id }, app.log);
    // Shared by running the command again, or, where its text is too long for the button (a
    // pasted abstract), by redoing the reply's own handle (its saved page).
    const redo = reply.redo === undefined ? undefined : encodeOrigin({ kind: 'act', handle: reply.redo });
    const share = reply.shareable ? (encodeOrigin({ kind: 'run', command: name, text }) ?? redo) : undefined;
    await respond({ response_type: 'ephemeral', ...renderReply(reply, share === undefined ? {} : { share }) });
  });
}

/**
 * Whether a command, or the subcommand its text starts with, decides by the member's role
 * (`permission`), which is then asked of Slack afresh rather than taken from the cache.
 * @example checksRole(app, 'library', 'archive off') // true
 */
function checksRole(app: App, name: string, text: string): boolean {
  const command = app.registry.get(name);
  const first = text.trim().split(/\s+/, 1)[0]!.toLowerCase();
  return command?.permission !== undefined || command?.subcommands?.some((s) => s.name === first && s.permission !== undefined) === true;
}

/**
 * Lets the event loop send the acknowledgements of requests that arrived together with this one
 * before a search holds it: in a burst, every command is acked first, then answered.
 */
export function afterPendingAcks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
