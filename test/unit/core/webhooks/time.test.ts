import { describe, expect, it } from 'vitest';
import { compactDate, compactTimestamp, isTimeZone } from '../../../../src/core/webhooks/time.js';

// US daylight saving time starts on 2026-03-08 at 02:00 EST (07:00Z).
const AFTER_DST_START = new Date('2026-03-08T07:30:45Z');
const BEFORE_DST_START = new Date('2026-03-08T06:59:59Z');

describe('compactTimestamp', () => {
  it.each([
    ['UTC', '20260308073045'],
    ['Asia/Shanghai', '20260308153045'],
    ['America/New_York', '20260308033045'],
    ['Asia/Kolkata', '20260308130045'],
  ])('renders a fixed instant in %s', (zone, expected) => {
    expect(compactTimestamp(AFTER_DST_START, zone)).toBe(expected);
  });

  it('gives each zone and each second its own digits when calls alternate (the last stamp per zone is reused only within its second)', () => {
    const base = Date.parse('2026-03-08T07:30:45Z');
    for (let i = 0; i < 3; i++) {
      expect(compactTimestamp(new Date(base + 999), 'UTC')).toBe('20260308073045');
      expect(compactTimestamp(new Date(base + 999), 'Asia/Shanghai')).toBe('20260308153045');
      expect(compactTimestamp(new Date(base + 1000), 'UTC')).toBe('20260308073046');
      expect(compactTimestamp(new Date(base - 1), 'UTC')).toBe('20260308073044');
    }
  });

  it('follows the New York offset change at the DST start', () => {
    expect(compactTimestamp(BEFORE_DST_START, 'America/New_York')).toBe('20260308015959');
    expect(compactTimestamp(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toBe('20260308030000');
    // Winter: UTC-5, summer: UTC-4.
    expect(compactTimestamp(new Date('2026-01-15T12:00:00Z'), 'America/New_York')).toBe('20260115070000');
    expect(compactTimestamp(new Date('2026-07-15T12:00:00Z'), 'America/New_York')).toBe('20260715080000');
  });

  it('renders midnight as hour 00 of the new day, never 24', () => {
    expect(compactTimestamp(new Date('2026-11-21T16:00:00Z'), 'Asia/Shanghai')).toBe('20261122000000');
    expect(compactTimestamp(new Date('2026-11-21T15:59:59Z'), 'Asia/Shanghai')).toBe('20261121235959');
    expect(compactTimestamp(new Date('2026-01-01T00:00:00Z'), 'UTC')).toBe('20260101000000');
    expect(compactTimestamp(new Date('2026-01-01T05:00:00Z'), 'America/New_York')).toBe('20260101000000');
    expect(compactTimestamp(new Date('2025-12-31T18:30:00Z'), 'Asia/Kolkata')).toBe('20260101000000');
  });

  it('is always 14 digits', () => {
    for (let hour = 0; hour < 24; hour++) {
      const at = new Date(Date.UTC(2026, 5, 1, hour, 0, 0));
      for (const zone of ['UTC', 'Asia/Shanghai', 'America/New_York', 'Asia/Kolkata']) {
        expect(compactTimestamp(at, zone)).toMatch(/^\d{14}$/);
      }
    }
  });

  it('throws on an invalid zone or an invalid Date', () => {
    expect(() => compactTimestamp(AFTER_DST_START, 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => compactTimestamp(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
  });
});

describe('compactDate', () => {
  it('is the calendar date in the zone', () => {
    const at = new Date('2026-11-21T16:00:00Z');
    expect(compactDate(at, 'UTC')).toBe('20261121');
    expect(compactDate(at, 'Asia/Shanghai')).toBe('20261122');
    expect(compactDate(new Date('2026-03-08T03:00:00Z'), 'America/New_York')).toBe('20260307');
    expect(compactDate(new Date('2026-03-07T18:29:59Z'), 'Asia/Kolkata')).toBe('20260307');
    expect(compactDate(new Date('2026-03-07T18:30:00Z'), 'Asia/Kolkata')).toBe('20260308');
  });
});

describe('isTimeZone', () => {
  it.each(['UTC', 'Asia/Shanghai', 'America/New_York', 'Asia/Kolkata', 'Europe/London', 'Etc/GMT+5'])('accepts %s', (zone) => {
    expect(isTimeZone(zone)).toBe(true);
  });

  it.each(['', 'Mars/Olympus_Mons', 'Asia/Nowhere', '+08:00', 'UTC ', 'Asia/Shanghai\n'])('rejects %j', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
  });
});
