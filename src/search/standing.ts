/**
 * A paper's standing: how much the field makes of it, as one number on a log scale, for broad
 * queries (`broad.ts`) to weigh in where many papers match about equally.
 *
 * Where the citation count is known, standing is `ln(1 + citations per year since publication)`
 * (years counted up to the newest paper of the library, so a paper of that year has had one):
 * a paper cited 30,000 times in 10 years stands at 8.0, a typical one (20 in 5 years) at 1.5.
 * Where it is not, it is what the library itself says: the count typical of a paper of that age
 * ({@link typicalCitations}: never less than a known typical paper, so an unknown count never
 * sinks a paper below papers whose counts are known and ordinary), moved by how the paper was
 * presented ({@link Track}: an oral above a poster above a workshop paper above a rejected one).
 * A withdrawn or anonymous record stands below every paper of its own, known count or not.
 *
 * The index keeps the inputs (`citedBy`, `track`, the year), not the standing, so the
 * formula can change without a new index format.
 */

import { MAX_CITED_BY } from '../store/citations.js';

/** How the index records an unknown citation count (a store's `IndexRow.citedBy` of null). */
export const UNKNOWN_CITED = 0xffff_ffff;

/**
 * How a venue presented a paper: its decision and track, from the status the store keeps
 * (`papers/status.ts`). Finer than `recordStanding` (rerank.ts), which newest-first lists and
 * recommendations order by.
 */
export const Track = {
  /** Withdrawn, desk-rejected, or every author "Anonymous": no paper of its own. */
  Record: 0,
  Rejected: 1,
  Undecided: 2,
  Workshop: 3,
  /** Findings, short papers, demonstrations, industry tracks. */
  Secondary: 4,
  /** A main-track paper: poster, accepted, long, a status the venue did not give. */
  Main: 5,
  Spotlight: 6,
  /** An oral, or an award. */
  Oral: 7,
} as const;
export type Track = (typeof Track)[keyof typeof Track];

/**
 * What a track says of an unknown count, in standing's units (a natural log: +0.5 is about
 * 1.6 times the citations). Orals and spotlights are cited more than posters, findings and
 * workshop papers less, rejected papers (often published later elsewhere) less again.
 */
export const TRACK_PRIOR: Readonly<Record<Track, number>> = {
  [Track.Record]: -6,
  [Track.Rejected]: -1,
  [Track.Undecided]: -0.5,
  [Track.Workshop]: -0.7,
  [Track.Secondary]: -0.3,
  [Track.Main]: 0,
  [Track.Spotlight]: 0.3,
  [Track.Oral]: 0.5,
};

/**
 * A paper's track from its status (canonical, see `papers/status.ts`) and authors.
 * @example trackOf('Oral', ['Ann Lee']) // Track.Oral
 * @example trackOf('Findings', ['Ann Lee']) // Track.Secondary
 * @example trackOf('Poster', ['Anonymous']) // Track.Record
 */
export function trackOf(status: string, authors: readonly string[]): Track {
  if (authors.length > 0 && authors.every((name) => name.trim().toLowerCase() === 'anonymous')) return Track.Record;
  const s = status.toLowerCase();
  if (/withdraw|desk/.test(s)) return Track.Record;
  if (/reject/.test(s)) return Track.Rejected;
  if (/under review|submitted|pending/.test(s)) return Track.Undecided;
  if (/workshop/.test(s)) return Track.Workshop;
  if (/findings|short|demonstration|demo|industry|student/.test(s)) return Track.Secondary;
  if (/oral|award|best|outstanding|highlight/.test(s)) return Track.Oral;
  if (/spotlight/.test(s)) return Track.Spotlight;
  return Track.Main;
}

/**
 * The index's value for a row's citation count: the count, or {@link UNKNOWN_CITED} for none,
 * a negative, fractional or absurd one (beyond the store's `MAX_CITED_BY`, which the store refuses already).
 * @example citedByColumn(1234) // 1234
 * @example citedByColumn(null) === UNKNOWN_CITED // true
 */
export function citedByColumn(count: number | null | undefined): number {
  if (count === null || count === undefined || !Number.isInteger(count) || count < 0 || count > MAX_CITED_BY) return UNKNOWN_CITED;
  return count;
}

/**
 * The citations typical of a paper `age` years old: 6 new, 35 at 15 years (medians of papers
 * in machine learning, vision and robotics venues), growing as a power of (1 + age).
 * @example typicalCitations(0) // 6
 * @example Math.round(typicalCitations(15)) // 35
 */
export function typicalCitations(age: number): number {
  return 6 * Math.pow(1 + Math.max(0, age), TYPICAL_GROWTH);
}
const TYPICAL_GROWTH = Math.log(35 / 6) / Math.log(16);

/** A year-less paper is taken to be this old. */
const UNKNOWN_AGE = 5;

/**
 * A paper's standing (see the module's comment): from its count when known (`cited` is the
 * index's value, {@link UNKNOWN_CITED} for none), else from its age and track.
 * @example paperStanding(30_000, 2015, Track.Main, 2024).toFixed(2) // '8.01'
 * @example paperStanding(UNKNOWN_CITED, 2024, Track.Oral, 2024).toFixed(2) // '2.45'
 */
export function paperStanding(cited: number, year: number, track: Track, newestYear: number): number {
  const age = year > 0 ? Math.max(0, newestYear - year) : UNKNOWN_AGE;
  if (track === Track.Record) return TRACK_PRIOR[Track.Record];
  if (cited !== UNKNOWN_CITED) return Math.log1p(cited / (age + 1));
  return Math.log1p(typicalCitations(age) / (age + 1)) + TRACK_PRIOR[track];
}
