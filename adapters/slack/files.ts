/**
 * A reply's file (an export) on Slack, through `files.uploadV2` (files.getUploadURLExternal, the
 * upload, files.completeUploadExternal; the files:write scope). A private reply's file goes to
 * the member's direct messages with the bot (conversations.open, im:write), never to the
 * channel; a channel's file goes to the channel, or, where the bot may not post (not a member of
 * a private channel), to the member's direct messages, and the reply says where it went.
 */
import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { messages } from '../../src/i18n/index.js';
import type { Reply, ReplyFile } from '../../src/reply.js';
import { mrkdwn } from './mrkdwn.js';

/** Where a file should go: the conversation the command ran in, for whom. */
export interface FileTarget {
  channel: string;
  user: string;
  thread_ts?: string;
}

/**
 * Uploads `reply.file`, if any, and resolves the reply without it, a note added saying where the
 * file is (or why there is none). A reply without a file comes back as it was.
 * @example const shown = await deliverFile(client, reply, { channel: 'C01', user: 'U02' }, log);
 */
export async function deliverFile(client: webApi.WebClient, reply: Reply, target: FileTarget, log: Logger): Promise<Reply> {
  const file = reply.file;
  if (!file) return reply;
  const { file: _file, ...rest } = reply;
  const m = messages(reply.locale);
  const note = (text: string): Reply => ({ ...rest, blocks: [...rest.blocks, { kind: 'note', text }] });
  // The message the file comes with is mrkdwn: the reply's text, escaped.
  const comment = mrkdwn(reply.fallback, 1000);
  if (!reply.ephemeral && !/^D/.test(target.channel)) {
    try {
      await upload(client, file, target.channel, comment, target.thread_ts);
      return rest;
    } catch (err) {
      const reason = slackError(err);
      log.info({ err, channel: target.channel }, 'Slack: could not share a file in the channel; sending it to the member instead');
      try {
        await upload(client, file, await dmWith(client, target.user), comment);
        return note(m.t('slack.fileNotInChannel', { reason }));
      } catch (dmErr) {
        log.warn({ err: dmErr, user: target.user }, 'Slack: could not send a file to the member either');
        return note(m.t('slack.fileFailed', { reason: slackError(dmErr) }));
      }
    }
  }
  try {
    await upload(client, file, await dmWith(client, target.user), comment);
    return note(m.t('slack.fileInDm'));
  } catch (err) {
    log.warn({ err, user: target.user }, 'Slack: could not send a file to the member');
    return note(m.t('slack.fileFailed', { reason: slackError(err) }));
  }
}

async function upload(client: webApi.WebClient, file: ReplyFile, channel: string, comment: string, thread_ts?: string): Promise<void> {
  const args = { channel_id: channel, filename: file.name, title: file.name, content: file.content, initial_comment: comment };
  await client.files.uploadV2(thread_ts ? { ...args, thread_ts } : args);
}

/** The bot's direct-message conversation with `user`. */
async function dmWith(client: webApi.WebClient, user: string): Promise<string> {
  const opened = await client.conversations.open({ users: user });
  const id = opened.channel?.id;
  if (!id) throw new Error('conversations.open named no channel');
  return id;
}

/** Slack's error code (`not_in_channel`, `missing_scope`), else the error's message. */
function slackError(err: unknown): string {
  const code = (err as { data?: { error?: unknown } } | undefined)?.data?.error;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message.slice(0, 120) : 'unknown error';
}
