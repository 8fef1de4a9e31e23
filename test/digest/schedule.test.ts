import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, cronPattern, latestSlot, nextSlot, parseTimeOfDay } from '../../src/digest/schedule.js';

const iso = (d: Date | undefined) => d?.toISOString();

describe('digest slots', () => {
  it('fall on the local time of day in each time zone', () => {
    const at = new Date('2026-06-15T12:00:00Z');
    expect(iso(latestSlot({ time: '09:00', timezone: 'Europe/Berlin', days: 'daily' }, at))).toBe('2026-06-15T07:00:00.000Z');
    expect(iso(latestSlot({ time: '09:00', timezone: 'America/New_York', days: 'daily' }, at))).toBe('2026-06-14T13:00:00.000Z');
    expect(iso(latestSlot({ time: '09:00', timezone: 'Asia/Tokyo', days: 'daily' }, at))).toBe('2026-06-15T00:00:00.000Z');
    expect(iso(latestSlot({ time: '23:30', timezone: 'Asia/Kolkata', days: 'daily' }, at))).toBe('2026-06-14T18:00:00.000Z');
  });

  it('follow daylight-saving changes', () => {
    const rule = { time: '09:00', timezone: 'Europe/Berlin', days: 'daily' } as const;
    // Last Sunday of March 2026: clocks go from UTC+1 to UTC+2.
    expect(iso(nextSlot(rule, new Date('2026-03-28T12:00:00Z')))).toBe('2026-03-29T07:00:00.000Z');
    expect(iso(latestSlot(rule, new Date('2026-03-28T12:00:00Z')))).toBe('2026-03-28T08:00:00.000Z');
    // 02:30 does not exist on the spring-forward day in New York: it runs at the next valid minute, once.
    const gap = { time: '02:30', timezone: 'America/New_York', days: 'daily' } as const;
    expect(iso(nextSlot(gap, new Date('2026-03-07T12:00:00Z')))).toBe('2026-03-08T07:00:00.000Z');
    // 01:30 happens twice on the fall-back day: the digest still runs once.
    const twice = { time: '01:30', timezone: 'America/New_York', days: 'daily' } as const;
    const slots = [nextSlot(twice, new Date('2026-10-31T12:00:00Z'))!];
    slots.push(nextSlot(twice, slots[0]!)!);
    expect(slots.map(iso)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  });

  it('skip weekends for weekday digests', () => {
    const rule = { time: '08:00', timezone: 'UTC', days: 'weekdays' } as const;
    expect(cronPattern(rule)).toBe('0 8 * * 1-5');
    expect(iso(latestSlot(rule, new Date('2026-11-29T12:00:00Z')))).toBe('2026-11-27T08:00:00.000Z'); // Sunday → Friday
  });

  it('have none before a subscription existed', () => {
    const rule = { time: '09:00', timezone: 'UTC', days: 'daily' } as const;
    expect(latestSlot(rule, new Date('2026-11-29T09:30:00Z'), new Date('2026-11-29T09:10:00Z'))).toBeUndefined();
    expect(iso(latestSlot(rule, new Date('2026-11-29T09:00:00Z')))).toBe('2026-11-29T09:00:00.000Z');
  });
});

describe('parsing time and zone', () => {
  it.each([
    ['9', '09:00'],
    ['09:30', '09:30'],
    ['9.30', '09:30'],
    ['9am', '09:00'],
    ['12am', '00:00'],
    ['12pm', '12:00'],
    ['9:30 pm', '21:30'],
    ['21h', '21:00'],
    ['24:00', undefined],
    ['9:60', undefined],
    ['13pm', undefined],
    ['noon', undefined],
  ])('%s → %s', (input, want) => {
    expect(parseTimeOfDay(input)).toBe(want);
  });

  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['America/New York', 'America/New_York'],
    ['utc', 'UTC'],
    ['GMT', 'UTC'],
    ['Mars/Olympus_Mons', undefined],
    ['', undefined],
  ])('%s → %s', (input, want) => {
    expect(canonicalTimeZone(input)).toBe(want);
  });
});
