/**
 * /dashboard/installations: technicians get their jobs for today and upcoming, grouped by status; admin and
 * support every job in a table with assignment, and a calendar of the scheduled slots.
 */
import { Card, Empty, List, Space, Spin, Tabs, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { Installation, InstallationStatus } from '../../contract/schemas/installation';
import { useViewer } from '../tickets/ui';
import { t } from '../../src/i18n';
import { useInstallations } from './api';
import { InstallationCalendar, StaffInstallationTable } from './StaffInstallations';
import { detailPath, formatSlot, InstallationStatusTag } from './ui';

export function InstallationsPage() {
  const viewer = useViewer();
  if (!viewer) return null;
  return viewer.role === 'technician' ? <TechnicianJobs /> : <StaffInstallations />;
}

/** The order a technician works through: what is under way first. */
const WORK_ORDER: InstallationStatus[] = ['in_progress', 'en_route', 'scheduled', 'requested', 'failed', 'completed', 'cancelled'];

export function groupByStatus(items: Installation[]): Array<{ status: InstallationStatus; items: Installation[] }> {
  return WORK_ORDER.map((status) => ({ status, items: items.filter((i) => i.status === status) })).filter((g) => g.items.length > 0);
}

function TechnicianJobs() {
  const { items, isLoading, error } = useInstallations({ upcoming: true, limit: 200 });
  const today = dayjs().format('YYYY-MM-DD');
  const todays = items.filter((i) => i.scheduled_start && dayjs(i.scheduled_start).format('YYYY-MM-DD') <= today);
  const later = items.filter((i) => !todays.includes(i));
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>{t('installations.myJobs')}</Typography.Title>
      {isLoading ? (
        <Spin />
      ) : error ? (
        <Typography.Text type="danger">{error}</Typography.Text>
      ) : items.length === 0 ? (
        <Empty description={t('installations.noJobs')} />
      ) : (
        [
          { key: 'today', title: t('installations.today'), jobs: todays },
          { key: 'upcoming', title: t('installations.upcoming'), jobs: later },
        ]
          .filter((section) => section.jobs.length > 0)
          .map((section) => (
            <Card key={section.key} title={section.title} data-testid={`jobs-${section.key}`}>
              {groupByStatus(section.jobs).map((g) => (
                <div key={g.status} data-testid={`group-${g.status}`}>
                  <Typography.Title level={5}><InstallationStatusTag status={g.status} /> ({g.items.length})</Typography.Title>
                  <List
                    dataSource={g.items}
                    renderItem={(job) => (
                      <List.Item actions={[<Link key="open" to={detailPath(job.id)}>{t('installations.open')}</Link>]}>
                        <List.Item.Meta
                          title={<Link to={detailPath(job.id)}>{`${job.number} · ${job.customer_name}`}</Link>}
                          description={`${formatSlot(job.scheduled_start, job.scheduled_end)} · ${job.address}${job.contact_phone ? ` · ${job.contact_phone}` : ''}`}
                        />
                      </List.Item>
                    )}
                  />
                </div>
              ))}
            </Card>
          ))
      )}
    </Space>
  );
}

function StaffInstallations() {
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>{t('installations.title')}</Typography.Title>
      <Tabs
        items={[
          { key: 'table', label: t('installations.tab.table'), children: <StaffInstallationTable /> },
          { key: 'calendar', label: t('installations.tab.calendar'), children: <InstallationCalendar /> },
        ]}
      />
    </Space>
  );
}

