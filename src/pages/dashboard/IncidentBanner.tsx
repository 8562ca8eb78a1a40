/**
 * The customer home's first line during an outage or a maintenance window reaching them (issue 38): one antd Alert
 * per incident (already in the home's bundle: no new weight), as a polite live region, with the title, the area and
 * since / until in the ISP's time zone.
 */
import { Alert } from 'antd';
import type { PublicIncident } from '../../../contract/schemas/incident';
import { formatDateTime } from '../../components/dates';
import { t } from '../../i18n';

/** "Service interruption" (the poller's incidents: no more is known), or with staff's title after it. */
const heading = (incident: PublicIncident) => {
  const kind = t(`home.incident.kind.${incident.kind}`);
  return incident.source === 'staff' ? `${kind}: ${incident.title}` : kind;
};

export function IncidentBanner({ incidents }: { incidents: PublicIncident[] }) {
  if (!incidents.length) return null;
  return (
    <div data-testid="home-incidents" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {incidents.map((incident) => (
        <Alert
          key={incident.id}
          role="status"
          type={incident.kind === 'maintenance' ? 'info' : 'warning'}
          showIcon
          message={heading(incident)}
          description={
            <>
              {incident.area && <div>{t('home.incident.area', { area: incident.area })}</div>}
              <div>
                {incident.ends_at
                  ? t('home.incident.window', {
                      since: formatDateTime(incident.starts_at),
                      until: formatDateTime(incident.ends_at),
                    })
                  : t('home.incident.since', { since: formatDateTime(incident.starts_at) })}
              </div>
              {incident.description && <div style={{ overflowWrap: 'anywhere' }}>{incident.description}</div>}
            </>
          }
        />
      ))}
    </div>
  );
}
