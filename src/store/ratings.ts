/**
 * A member's own signals: 👍 and 👎 on papers, and the authors they follow. Private to the
 * member (one member's never shape what another sees), keyed by the platforms' ids as reading
 * lists' members are: a member of one server or workspace, never a display name.
 *
 * Papers are kept by their store id, so ratings survive re-imports and index rebuilds; when an
 * import merges two stored papers into one, `movePaper` carries them over. An author is kept by
 * the name as the index keeps it ({@link authorKeyOf}: folded, lower case, words joined by one
 * space), with the name as the member typed it for showing. The interface is small and async so
 * that SQLite and PostgreSQL both implement it, with one contract suite.
 */
import { UserError } from '../errors.js';
import { normalizeTitle } from '../text.js';

/** Whose signals: a member of a server or workspace (Discord guild, Slack team; `dm` outside any server). */
export interface Member {
  platform: string;
  team: string;
  /** The member's user id on the platform. */
  user: string;
}

/** 👍 (1) or 👎 (-1). */
export type RatingValue = 1 | -1;

/** A paper a member rated. */
export interface Rating {
  paperId: string;
  value: RatingValue;
  /** When the member gave this value (ISO instant): pressing the same again does not move it. */
  at: string;
}

/** How many papers a member rated each way. */
export interface RatingCounts {
  up: number;
  down: number;
}

/** What {@link RatingStore.rate} did. */
export interface Rated {
  /** The value before (null: none). */
  previous: RatingValue | null;
  /** The member's counts after. */
  counts: RatingCounts;
}

/** An author a member follows. */
export interface Follow {
  /** The name as the index keeps it ({@link authorKeyOf}): what matches papers. */
  author: string;
  /** The name as the member last gave it (accents, case, script kept): what is shown. */
  name: string;
  /** When they first followed (ISO instant). */
  at: string;
}

/** What {@link RatingStore.forgetMember} deleted. */
export interface ForgottenSignals {
  ratings: number;
  follows: number;
}

/** Most papers one member may rate; a rating of one more paper is a {@link SignalLimitError}. */
export const MAX_RATINGS_PER_MEMBER = 10_000;
/** Most authors one member may follow; one more is a {@link SignalLimitError}. */
export const MAX_FOLLOWS_PER_MEMBER = 200;
/** Longest author name one may follow, in characters (code points); longer is a UserError. */
export const MAX_AUTHOR_NAME_LENGTH = 200;

/**
 * A member at one of the limits: {@link MAX_RATINGS_PER_MEMBER} papers rated, or
 * {@link MAX_FOLLOWS_PER_MEMBER} authors followed. A UserError (the member can make room: take a
 * rating back, unfollow someone); `kind` and `limit` say which.
 */
export class SignalLimitError extends UserError {
  constructor(
    readonly kind: 'ratings' | 'follows',
    readonly limit: number,
  ) {
    super(kind === 'ratings' ? 'ratings.tooMany' : 'ratings.tooManyFollows', { max: limit });
  }
}

/**
 * The key of an author's name: as the search index keeps names (folded, lower case, words joined
 * by single spaces), so that a followed name matches the papers' authors however it was typed.
 * Empty for a name with no letters or digits.
 * @example authorKeyOf('José  García') // 'jose garcia'
 */
export function authorKeyOf(name: string): string {
  return normalizeTitle(name);
}

export interface RatingStore {
  /**
   * Sets the member's rating of `paperId` (null takes it back) at `at`. Giving the value it has
   * changes nothing (its time stays). Toggling is the caller's: read the rating with
   * {@link ratingsOf} and give null for a second press. A first rating beyond
   * {@link MAX_RATINGS_PER_MEMBER} is a {@link SignalLimitError} and writes nothing.
   */
  rate(member: Member, paperId: string, value: RatingValue | null, at: Date): Promise<Rated>;
  /** The member's ratings of these papers (those rated). */
  ratingsOf(member: Member, paperIds: readonly string[]): Promise<Map<string, RatingValue>>;
  /** The member's ratings, newest first (ties by paper id); a page of them if asked. */
  ratings(member: Member, page?: { offset: number; limit: number }): Promise<Rating[]>;
  /** How many papers the member rated 👍 and 👎. */
  counts(member: Member): Promise<RatingCounts>;

  /**
   * Follows the author named `name` (its key by {@link authorKeyOf}); following again keeps the
   * first time and shows the name as given now. A name without letters or digits, or longer than
   * {@link MAX_AUTHOR_NAME_LENGTH}, is a UserError; one author beyond
   * {@link MAX_FOLLOWS_PER_MEMBER} a {@link SignalLimitError}. Resolves whether it was new, the
   * key and how many the member follows.
   */
  follow(member: Member, name: string, at: Date): Promise<{ added: boolean; author: string; count: number }>;
  /** Stops following the author `name` names (by its key); resolves whether they were followed. */
  unfollow(member: Member, name: string): Promise<boolean>;
  /** The authors the member follows, most recently followed first (ties by key). */
  follows(member: Member): Promise<Follow[]>;

  /** Deletes the member's ratings and follows; resolves how many of each. */
  forgetMember(member: Member): Promise<ForgottenSignals>;
  /** Deletes every rating and follow of a server or workspace; resolves how many rows went. */
  forgetTeam(platform: string, team: string): Promise<number>;
  /**
   * Moves every rating of paper `from` to paper `to` (two stored papers merged into one). A
   * member who rated both keeps the rating given last (their latest opinion), with its time.
   */
  movePaper(from: string, to: string): Promise<void>;
}
