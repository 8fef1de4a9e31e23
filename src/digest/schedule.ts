/**
 * When digests are due: a subscription's slots are the instants its local time of day falls on,
 * in its own time zone, daylight-saving changes included (croner computes them: a time that a
 * spring-forward day skips runs at the first valid minute after; a fall-back day runs once).
 */
import { Cron } from 'croner';
import type { DigestDays } from '../store/digests.js';

export interface SlotRule {
  /** HH:MM, 24-hour. */
  time: string;
  /** IANA zone, e.g. Europe/Berlin. */
  timezone: string;
  days: DigestDays;
}

/**
 * The cron pattern of a rule.
 * @example cronPattern({ time: '09:30', timezone: 'UTC', days: 'weekdays' }) // '30 9 * * 1-5'
 */
export function cronPattern(rule: SlotRule): string {
  const [hh, mm] = rule.time.split(':').map(Number);
  return `${mm} ${hh} * * ${rule.days === 'weekdays' ? '1-5' : '*'}`;
}

/**
 * The latest slot at or before `at`, or undefined if there is none after `notBefore`.
 * @example latestSlot({ time: '09:00', timezone: 'Europe/Paris', days: 'daily' }, new Date('2026-11-29T12:00:00Z'))
 *   // 2026-11-29T08:00:00.000Z
 */
export function latestSlot(rule: SlotRule, at: Date, notBefore?: Date): Date | undefined {
  const cron = new Cron(cronPattern(rule), { timezone: rule.timezone, paused: true });
  const [slot] = cron.previousRuns(1, new Date(at.getTime() + 1));
  if (!slot || slot.getTime() > at.getTime()) return undefined;
  if (notBefore && slot.getTime() < notBefore.getTime()) return undefined;
  return slot;
}

/** The next slot strictly after `after`. */
export function nextSlot(rule: SlotRule, after: Date): Date | undefined {
  const cron = new Cron(cronPattern(rule), { timezone: rule.timezone, paused: true });
  return cron.nextRun(after) ?? undefined;
}

/**
 * An IANA zone as the runtime knows it, matched without regard to case; undefined if unknown.
 * @example canonicalTimeZone('europe/berlin') // 'Europe/Berlin'
 */
export function canonicalTimeZone(input: string): string | undefined {
  const text = input.trim();
  if (text === '' || text.length > 64) return undefined;
  if (/^(utc|gmt|z)$/i.test(text)) return 'UTC';
  const zones = Intl.supportedValuesOf('timeZone');
  const exact = zones.find((z) => z.toLowerCase() === text.toLowerCase().replace(/\s+/g, '_'));
  if (exact) return exact;
  try {
    // Zones the runtime knows by another name (aliases such as Asia/Calcutta, EST): its own
    // spelling when it only differs in case, else as typed.
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === text.toLowerCase() ? resolved : text;
  } catch {
    return undefined;
  }
}

/**
 * A time of day as HH:MM, from "9", "9:30", "09:30", "9am", "9:30 pm", "21h"; undefined if not one.
 * @example parseTimeOfDay('9:30pm') // '21:30'
 */
export function parseTimeOfDay(input: string): string | undefined {
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|h)?$/i.exec(input.trim());
  if (!m) return undefined;
  let hours = Number(m[1]);
  const minutes = Number(m[2] ?? 0);
  const suffix = m[3]?.toLowerCase();
  if (suffix === 'am' || suffix === 'pm') {
    if (hours < 1 || hours > 12) return undefined;
    hours = (hours % 12) + (suffix === 'pm' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return undefined;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}
