/**
 * Time frames → date ranges (spec §5). Days are UTC calendar days; every frame is the calendar period that
 * holds "now": today, tomorrow, this ISO week (Monday to Sunday), this month, this quarter, this year, or the
 * custom inclusive range. `from` is inclusive, `to` exclusive (midnight after the last day).
 */
import {
  DASHBOARD_MESSAGES as M,
  isIsoDay,
  MAX_CUSTOM_RANGE_DAYS,
  type TimeFrame,
} from '../../../contract/schemas/dashboard';
import { badRequest } from '../../lib/errors';

export interface ResolvedRange {
  startDate: string;
  endDate: string;
  from: Date;
  to: Date;
}

const DAY = 86_400_000;
const day = (d: Date) => d.toISOString().slice(0, 10);
const utcMidnight = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

function range(first: Date, last: Date): ResolvedRange {
  return { startDate: day(first), endDate: day(last), from: first, to: new Date(last.getTime() + DAY) };
}

export function resolveRange(timeFrame: TimeFrame, now: Date, startDate?: string, endDate?: string): ResolvedRange {
  const today = utcMidnight(now);
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  switch (timeFrame) {
    case 'today':
      return range(today, today);
    case 'tomorrow': {
      const t = new Date(today.getTime() + DAY);
      return range(t, t);
    }
    case 'week': {
      const sinceMonday = (today.getUTCDay() + 6) % 7;
      const monday = new Date(today.getTime() - sinceMonday * DAY);
      return range(monday, new Date(monday.getTime() + 6 * DAY));
    }
    case 'quarter': {
      const q = Math.floor(m / 3) * 3;
      return range(new Date(Date.UTC(y, q, 1)), new Date(Date.UTC(y, q + 3, 0)));
    }
    case 'year':
      return range(new Date(Date.UTC(y, 0, 1)), new Date(Date.UTC(y, 11, 31)));
    case 'custom': {
      const errors = [];
      if (!startDate || !isIsoDay(startDate)) errors.push({ field: 'startDate', message: M.startDate });
      if (!endDate || !isIsoDay(endDate)) errors.push({ field: 'endDate', message: M.endDate });
      if (errors.length) throw badRequest(errors[0].message, errors);
      if (endDate! < startDate!) throw badRequest(M.endBeforeStart, [{ field: 'endDate', message: M.endBeforeStart }]);
      const r = range(new Date(`${startDate}T00:00:00Z`), new Date(`${endDate}T00:00:00Z`));
      if ((r.to.getTime() - r.from.getTime()) / DAY > MAX_CUSTOM_RANGE_DAYS)
        throw badRequest(M.rangeTooLong, [{ field: 'endDate', message: M.rangeTooLong }]);
      return r;
    }
    default: // 'month'
      return range(new Date(Date.UTC(y, m, 1)), new Date(Date.UTC(y, m + 1, 0)));
  }
}

/** Longer ranges are charted per month so a chart never has thousands of points. */
export function seriesInterval(r: ResolvedRange): 'day' | 'month' {
  return (r.to.getTime() - r.from.getTime()) / DAY > 366 ? 'month' : 'day';
}

/**
 * The bucket keys of a chart, oldest first: every day (YYYY-MM-DD) or month (YYYY-MM) of the range up to today
 * (days still to come are not drawn as zeros); a range wholly in the future (tomorrow) is drawn whole.
 */
export function seriesKeys(r: ResolvedRange, interval: 'day' | 'month', now: Date): string[] {
  const today = utcMidnight(now);
  const rangeLast = r.to.getTime() - DAY;
  const lastDay = new Date(r.from > today ? rangeLast : Math.min(rangeLast, today.getTime()));
  const keys: string[] = [];
  if (interval === 'day') {
    for (let t = r.from.getTime(); t <= lastDay.getTime(); t += DAY) keys.push(day(new Date(t)));
  } else {
    let cursor = new Date(Date.UTC(r.from.getUTCFullYear(), r.from.getUTCMonth(), 1));
    while (cursor <= lastDay) {
      keys.push(cursor.toISOString().slice(0, 7));
      cursor = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, 1));
    }
  }
  return keys;
}
