/**
 * `paperscout feedback export --member <platform>:<team>:<user> [--json]`: a member's 👍/👎 and
 * followed authors, for whoever runs the bot (a member asking what is kept about them, an
 * evaluation replaying real feedback through `recommend --stdin`). The member is named by the
 * platforms' ids, as `export` and `library` name lists.
 */
import { parseArgs } from 'node:util';
import type { App } from '../../src/app.js';
import { UserError } from '../../src/errors.js';
import type { Member } from '../../src/store/ratings.js';
import { cut } from '../../src/text.js';
import { PLATFORMS } from './lists.js';

/** Longest part of a bad `--member` repeated in its error line. */
const MAX_SHOWN_VALUE = 80;
/** A team or user id: platforms' ids have no spaces, control or format characters. */
const ID = /^[^\s\p{Cc}\p{Cf}]+$/u;
/** Characters that would break the error's one line (newlines, escapes) or hide text. */
const CONTROL = /[\p{Cc}\p{Cf}]/gu;

/** What `feedback export --json` prints: one object. */
interface FeedbackExport {
  member: Member;
  counts: { up: number; down: number };
  /** Newest first; `title` null for a paper no longer in the library. */
  ratings: Array<{ id: string; value: 1 | -1; at: string; title: string | null }>;
  /** Most recently followed first: the name as shown, and the key papers' authors match. */
  follows: Array<{ name: string; author: string; at: string }>;
}

/** `feedback <subcommand> …`: only `export` for now. */
export async function runFeedback(app: App, args: string[]): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'export') throw new UserError('cli.feedback.usage');
  const { values } = parseArgs({ args: rest, options: { member: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const member = memberOf(values.member);
  const feedback = await exportFeedback(app, member);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(feedback, null, 2)}\n`);
    return 0;
  }
  for (const r of feedback.ratings) process.stdout.write(`${r.value === 1 ? '+1' : '-1'}\t${r.id}\t${r.at}\t${r.title ?? ''}\n`);
  for (const f of feedback.follows) process.stdout.write(`follows\t${f.name}\t${f.at}\n`);
  return 0;
}

/** The member's ratings (with the titles of the papers the library holds) and follows. */
async function exportFeedback(app: App, member: Member): Promise<FeedbackExport> {
  const store = app.stores.ratings;
  const [ratings, follows, counts] = await Promise.all([store.ratings(member), store.follows(member), store.counts(member)]);
  const papers = await app.library.papersByIds(ratings.map((r) => r.paperId));
  return {
    member,
    counts,
    ratings: ratings.map((r) => ({ id: r.paperId, value: r.value, at: r.at, title: papers.get(r.paperId)?.paper.title ?? null })),
    follows: follows.map((f) => ({ name: f.name, author: f.author, at: f.at })),
  };
}

/**
 * The member `--member` names: `<platform>:<team>:<user>`, the platform one the bot serves, the
 * team and the user ids as platforms write them (no spaces or control characters). Anything else
 * is a UserError saying how to write it.
 * @example memberOf('slack:T0123:U0456') // { platform: 'slack', team: 'T0123', user: 'U0456' }
 */
function memberOf(value: string | undefined): Member {
  if (value === undefined) throw new UserError('cli.feedback.giveMember');
  const [platform, team, user, ...rest] = value.split(':');
  if (!platform || !PLATFORMS.includes(platform) || !team || !ID.test(team) || !user || !ID.test(user) || rest.length > 0) {
    throw new UserError('cli.feedback.badMember', { value: cut(value.replace(CONTROL, '\uFFFD'), MAX_SHOWN_VALUE) });
  }
  return { platform, team, user };
}

