/**
 * The ISP's time zone (issue 37): an IANA name (`America/Mexico_City`) that moments — a payment's time, a ticket's
 * last reply — are written in, by the web app and by the server's e-mails and PDFs. Unset (null): the web app writes
 * them in the reader's browser's zone and the server in UTC, as before there was a setting.
 *
 * A calendar day (`2026-11-28`: a due date, a billing period) is not a moment and is never moved by a zone.
 */

/** An IANA-style name: letters first, then letters, digits, `_`, `+`, `-`, with `/` between parts (no offsets). */
const NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** Every zone this runtime's Intl knows, as its own list spells them (empty where Intl cannot list them). */
export function timeZoneNames(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/** Whether Intl.DateTimeFormat accepts `name` as a time zone (`America/Mexico_City`, `UTC`; not `+05:00`). */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || name.length > 64 || !NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A zone as Intl's list spells it (`america/mexico_city` → `America/Mexico_City`); a name not listed as given. */
export function canonicalTimeZone(name: string): string {
  const lower = name.toLowerCase();
  return timeZoneNames().find((zone) => zone.toLowerCase() === lower) ?? (lower === 'utc' ? 'UTC' : name);
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day (YYYY-MM-DD) a moment falls on in `timeZone`; without one (or with one Intl does not know), its
 * UTC day. 2026-11-28T03:00Z is 2026-11-27 in America/Mexico_City.
 */
export function dayIn(moment: Date, timeZone?: string | null): string {
  const utc = moment.toISOString().slice(0, 10);
  if (!timeZone || !isTimeZone(timeZone)) return utc;
  let f = dayFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, f);
  }
  const parts = f.formatToParts(moment);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const year = part('year');
  return /^\d{4}$/.test(year) ? `${year}-${part('month')}-${part('day')}` : utc;
}
