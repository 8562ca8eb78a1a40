/**
 * One date and time format across the portal (issue 34), the reader's own: the same moment reads the same on
 * every screen, in their locale's order and clock, and a calendar day is never moved by their time zone.
 */
import { describe, expect, it } from 'vitest';
import {
  formatClock,
  formatDate,
  formatDateTime,
  formatDay,
  formatRelative,
  formatTime,
} from '../../src/components/dates';

// A local moment (whatever the machine's time zone): 28 November 2026, 17:05:29.
const moment = new Date(2026, 10, 28, 17, 5, 29);

describe('dates', () => {
  it('writes a moment in the reader’s locale: day, month and year in their order, their clock', () => {
    expect(formatDateTime(moment, 'en-GB')).toBe('28 Nov 2026, 17:05');
    expect(formatDateTime(moment, 'en-US')).toMatch(/^Nov 28, 2026, 5:05\sPM$/);
    expect(formatDateTime(moment, 'de-DE')).toBe('28.11.2026, 17:05');
    expect(formatDate(moment, 'en-GB')).toBe('28 Nov 2026');
    expect(formatTime(moment, 'en-GB')).toBe('17:05');
    expect(formatClock(moment, 'en-GB')).toBe('17:05:29');
  });

  it('takes ISO strings and epoch milliseconds as well as dates, and shows a dash for nothing or nonsense', () => {
    expect(formatDate(moment.toISOString(), 'en-GB')).toBe('28 Nov 2026');
    expect(formatDate(moment.getTime(), 'en-GB')).toBe('28 Nov 2026');
    for (const empty of [null, undefined, '', 'not a date']) expect(formatDateTime(empty, 'en-GB')).toBe('—');
  });

  it('shows a calendar day (an invoice’s due date) as that day, in the same style, whatever the time zone', () => {
    expect(formatDay('2026-11-08', 'en-GB')).toBe('8 Nov 2026');
    expect(formatDay('2026-01-01', 'en-US')).toBe('Jan 1, 2026');
    expect(formatDay('2026-12-31T23:30:00.000Z', 'en-GB')).toBe('31 Dec 2026');
    expect(formatDay('soon', 'en-GB')).toBe('—');
    expect(formatDay(null, 'en-GB')).toBe('—');
  });

  it('uses the browser’s language when the caller names none', () => {
    expect(formatDate(moment)).toBe(
      new Intl.DateTimeFormat(navigator.language, { dateStyle: 'medium' }).format(moment),
    );
  });

  it('says how long ago or ahead something is', () => {
    const now = moment.getTime();
    expect(formatRelative(now - 3 * 3_600_000, now, 'en')).toBe('3 hours ago');
    expect(formatRelative(now + 2 * 86_400_000, now, 'en')).toBe('in 2 days');
    expect(formatRelative(now - 86_400_000, now, 'en')).toBe('yesterday');
    expect(formatRelative(now - 10_000, now, 'en')).toBe('now');
  });
});
