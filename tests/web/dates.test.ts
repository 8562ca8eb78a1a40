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
  formatMomentDay,
  formatRelative,
  formatTime,
  ispTimeZone,
  setIspTimeZone,
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

/**
 * Issue 37: the ISP's time zone (settings.time_zone). A moment is written in it when it is set, else in the reader's
 * browser's zone; a calendar day is never moved by either. The zone is module state shared by the files of a worker:
 * every test that sets it puts it back.
 */
describe('dates in the ISP’s time zone', () => {
  // 03:00 UTC on 28 November is 21:00 on 27 November in Mexico City and noon on the 28th in Tokyo.
  const late = '2026-11-28T03:00:00.000Z';

  it('writes a moment in the zone given', () => {
    expect(formatDateTime(late, 'en-GB', 'America/Mexico_City')).toBe('27 Nov 2026, 21:00');
    expect(formatDate(late, 'en-GB', 'America/Mexico_City')).toBe('27 Nov 2026');
    expect(formatDateTime(late, 'en-GB', 'Asia/Tokyo')).toBe('28 Nov 2026, 12:00');
    expect(formatTime(late, 'en-GB', 'Asia/Tokyo')).toBe('12:00');
    expect(formatClock(late, 'en-GB', 'UTC')).toBe('03:00:00');
  });

  it('uses the ISP’s zone from the public settings by default, one formatter per zone, and none goes back to the browser’s', () => {
    const browsers = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(late),
    );
    try {
      setIspTimeZone('America/Mexico_City');
      expect(ispTimeZone()).toBe('America/Mexico_City');
      expect(formatDateTime(late, 'en-GB')).toBe('27 Nov 2026, 21:00');
      setIspTimeZone('Asia/Tokyo');
      expect(formatDateTime(late, 'en-GB')).toBe('28 Nov 2026, 12:00');
      // A name Intl does not know (or none) counts as none.
      setIspTimeZone('Mars/Olympus_Mons');
      expect(ispTimeZone()).toBeUndefined();
      expect(formatDateTime(late, 'en-GB')).toBe(browsers);
    } finally {
      setIspTimeZone(null);
    }
    expect(ispTimeZone()).toBeUndefined();
    expect(formatDateTime(late, 'en-GB')).toBe(browsers);
  });

  it('writes the day a payment came in as the e-mails and PDFs do: in the ISP’s zone, else its UTC day', () => {
    expect(formatMomentDay(late, 'en-GB', 'America/Mexico_City')).toBe('27 Nov 2026');
    expect(formatMomentDay(late, 'en-GB', 'Asia/Tokyo')).toBe('28 Nov 2026');
    expect(formatMomentDay('2026-11-27T23:00:00.000Z', 'en-GB')).toBe('27 Nov 2026');
    expect(formatMomentDay('2026-11-28', 'en-GB', 'America/Mexico_City')).toBe('28 Nov 2026');
    expect(formatMomentDay(null, 'en-GB', 'Asia/Tokyo')).toBe('—');
    expect(formatMomentDay('soon', 'en-GB', 'Asia/Tokyo')).toBe('—');
  });

  it('never moves a calendar day (a due date, a billing period’s day), whatever the ISP’s zone', () => {
    try {
      for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Mexico_City', 'Asia/Tokyo', null]) {
        setIspTimeZone(zone);
        expect(formatDay('2026-11-28', 'en-GB')).toBe('28 Nov 2026');
        expect(formatDay('2026-01-01', 'en-US')).toBe('Jan 1, 2026');
        // A period's boundary kept as a UTC midnight is that UTC day.
        expect(formatDay('2026-12-01T00:00:00.000Z', 'en-GB')).toBe('1 Dec 2026');
        expect(formatMomentDay('2026-11-28', 'en-GB')).toBe('28 Nov 2026');
        expect(formatDate('2026-11-28', 'en-GB')).toBe('28 Nov 2026');
      }
    } finally {
      setIspTimeZone(null);
    }
  });
});
