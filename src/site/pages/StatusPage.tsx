/**
 * /status (issue 38): the service status for everybody — current outages and planned maintenance by area, and what
 * was resolved in the last days — from GET /api/status (no personal data). Times in the ISP's time zone.
 */
import '../../i18n/site';
import { useEffect, useState } from 'react';
import type { PublicIncident, PublicStatus } from '../../../contract/schemas/incident';
import { formatDateTime } from '../../components/dates';
import { t } from '../../i18n';
import { siteApi } from '../api';
import { usePageMeta } from '../meta';

/** A poller incident's title is a standard text in the reader's language; staff's is their own. */
function title(incident: PublicIncident): string {
  return incident.source === 'poller' ? t(`site.status.kind.${incident.kind}`) : incident.title;
}

function when(incident: PublicIncident): string {
  const since = formatDateTime(incident.starts_at);
  if (incident.resolved_at) return t('site.status.resolvedAt', { since, until: formatDateTime(incident.resolved_at) });
  if (incident.ends_at) return t('site.status.window', { since, until: formatDateTime(incident.ends_at) });
  return t('site.status.since', { since });
}

function IncidentItem({ incident, area }: { incident: PublicIncident; area?: boolean }) {
  return (
    <li className={`status-incident ${incident.resolved_at ? 'resolved' : incident.kind}`}>
      <strong>{title(incident)}</strong>
      <span className="status-tag">{t(`site.status.kind.${incident.kind}`)}</span>
      {area && incident.area && <span className="site-note">{incident.area}</span>}
      <span className="site-note">{when(incident)}</span>
      {incident.description && <p>{incident.description}</p>}
    </li>
  );
}

export function StatusPage() {
  usePageMeta(t('site.status.title'), t('site.status.description'));
  const [status, setStatus] = useState<PublicStatus | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    siteApi.status().then(
      (s) => live && setStatus(s),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const calm = status && !status.areas.some((a) => a.current.length);
  return (
    <article className="site-section" data-testid="status-page">
      <h1>{t('site.status.title')}</h1>
      {!status && !failed && <p className="site-note">{t('site.loading')}</p>}
      {failed && <p className="site-note">{t('site.status.failed')}</p>}
      {status && (
        <>
          <p className="site-lead" role="status">
            {calm ? t('site.status.allGood') : t('site.status.someDown')}
          </p>
          {status.areas.map((group) => (
            <section key={group.area ?? ''} className="status-area" aria-label={group.area ?? t('site.status.noArea')}>
              <h2>{group.area ?? t('site.status.noArea')}</h2>
              {group.current.length > 0 && (
                <ul className="status-list">
                  {group.current.map((i) => (
                    <IncidentItem key={i.id} incident={i} />
                  ))}
                </ul>
              )}
              {group.upcoming.length > 0 && (
                <>
                  <h3>{t('site.status.upcoming')}</h3>
                  <ul className="status-list">
                    {group.upcoming.map((i) => (
                      <IncidentItem key={i.id} incident={i} />
                    ))}
                  </ul>
                </>
              )}
            </section>
          ))}
          <section className="status-area" aria-label={t('site.status.resolved')}>
            <h2>{t('site.status.resolved')}</h2>
            {status.resolved.length ? (
              <ul className="status-list">
                {status.resolved.map((i) => (
                  <IncidentItem key={i.id} incident={i} area />
                ))}
              </ul>
            ) : (
              <p className="site-note">{t('site.status.noneResolved')}</p>
            )}
          </section>
        </>
      )}
    </article>
  );
}
