/** The "started" and "ended" messages of an incident, in the customer's language, times in the ISP's zone. */
import type { LanguageCode } from '../../../contract/languages';
import type { IncidentRow } from '../../db/schema/messaging';
import { localeOf, mt } from '../../i18n';
import type { ComposedMessage } from '../messaging/types';

export type IncidentEvent = 'started' | 'ended';

/** A poller incident's title is a standard text in the reader's language; staff's is their own. */
export function incidentTitle(
  language: LanguageCode,
  incident: Pick<IncidentRow, 'source' | 'title' | 'area'>,
): string {
  return incident.source === 'poller'
    ? mt(language, 'mail.outages.pollerTitle', { area: incident.area ?? 'none' })
    : incident.title;
}

function moment(language: LanguageCode, value: Date, timeZone: string | null): string {
  return new Intl.DateTimeFormat(localeOf(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: timeZone ?? 'UTC',
  }).format(value);
}

export function composeIncidentMessage(
  language: LanguageCode,
  incident: IncidentRow,
  event: IncidentEvent,
  context: { timeZone: string | null; appUrl: string },
): ComposedMessage {
  const t = (key: string, params?: Record<string, string>) => mt(language, key, params);
  const title = incidentTitle(language, incident);
  const url = `${context.appUrl.replace(/\/$/, '')}/status`;
  const start = moment(language, incident.startsAt, context.timeZone);
  const endAt = incident.resolvedAt ?? incident.endsAt;
  const end = endAt ? moment(language, endAt, context.timeZone) : 'none';
  if (event === 'started') {
    const lead =
      incident.kind === 'maintenance'
        ? t('mail.outages.started.maintenance', { start, end })
        : t('mail.outages.started.outage', { start });
    const text = [t('mail.outages.greeting'), lead, incident.description, t('mail.outages.status', { url })]
      .filter(Boolean)
      .join('\n\n');
    return {
      subject: t('mail.outages.started.subject', { kind: incident.kind, title }),
      text,
      short: t('mail.outages.started.short', { title, start, url }),
    };
  }
  return {
    subject: t('mail.outages.ended.subject', { title }),
    text: [t('mail.outages.greeting'), t('mail.outages.ended.text', { end }), t('mail.outages.status', { url })].join(
      '\n\n',
    ),
    short: t('mail.outages.ended.short', { title, end }),
  };
}
