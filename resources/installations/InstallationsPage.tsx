/**
 * /dashboard/installations: technicians get their day as cards (made for a phone in the field): today's jobs
 * in time order first, then the upcoming ones, then the finished ones; admin and support every job in a table
 * with assignment, and a calendar of the scheduled slots.
 */
import { RightOutlined } from '@ant-design/icons';
import { Card, Empty, Space, Spin, Tabs, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { Installation } from '../../contract/schemas/installation';
import { useViewer } from '../tickets/ui';
import { t } from '../../src/i18n';
import { useInstallations } from './api';
import { isOverdue, planDay } from './day';
import { InstallationCalendar, StaffInstallationTable } from './StaffInstallations';
import { detailPath, formatSlot, formatTimes, InstallationStatusTag, MapsLink, TelLink, TOUCH } from './ui';
import { PageTitle } from '../../src/components/Text';

export function InstallationsPage() {
  const viewer = useViewer();
  if (!viewer) return null;
  return viewer.role === 'technician' ? <TechnicianJobs /> : <StaffInstallations />;
}

/** How far back the finished jobs go (the open ones come whatever their date). */
const FINISHED_DAYS = 30;

function TechnicianJobs() {
  // Open jobs (overdue ones included) and today's finished ones; then the last weeks' finished jobs, which the
  // first list leaves out. Two reads, as the list answers one status filter and the soonest slot first.
  const open = useInstallations({ upcoming: true, limit: 200 });
  const recent = useInstallations({
    from: dayjs().subtract(FINISHED_DAYS, 'day').format('YYYY-MM-DD'),
    to: dayjs().format('YYYY-MM-DD'),
    limit: 200,
  });
  const plan = planDay([...open.items, ...recent.items]);
  const sections = [
    {
      key: 'today',
      title: t('installations.today'),
      subtitle: dayjs().format('dddd D MMMM'),
      jobs: plan.today,
      empty: t('installations.noJobsToday'),
    },
    {
      key: 'upcoming',
      title: t('installations.upcoming'),
      jobs: plan.upcoming,
      empty: t('installations.noJobsUpcoming'),
    },
    { key: 'finished', title: t('installations.finished'), jobs: plan.finished, empty: null },
  ];
  const nothing = plan.today.length + plan.upcoming.length + plan.finished.length === 0;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="technician-jobs">
      <PageTitle>{t('installations.myJobs')}</PageTitle>
      {open.isLoading ? (
        <Spin />
      ) : open.error ? (
        <Typography.Text type="danger">{open.error}</Typography.Text>
      ) : nothing ? (
        <Empty description={t('installations.noJobs')} />
      ) : (
        sections
          .filter((s) => s.jobs.length > 0 || s.empty)
          .map((s) => (
            <section key={s.key} data-testid={`jobs-${s.key}`} aria-labelledby={`jobs-${s.key}-title`}>
              <Typography.Title
                level={2}
                id={`jobs-${s.key}-title`}
                style={{ marginTop: 0, marginBottom: 8, fontSize: 20 }}
              >
                {s.title} {s.jobs.length > 0 && <Typography.Text type="secondary">({s.jobs.length})</Typography.Text>}
                {s.subtitle && (
                  <Typography.Text type="secondary" style={{ display: 'block', fontSize: 14, fontWeight: 'normal' }}>
                    {s.subtitle}
                  </Typography.Text>
                )}
              </Typography.Title>
              {s.jobs.length === 0 ? (
                <Typography.Text type="secondary">{s.empty}</Typography.Text>
              ) : (
                <Space direction="vertical" size={12} style={{ width: '100%' }}>
                  {s.jobs.map((job) => (
                    <JobCard key={job.id} job={job} day={s.key === 'today' ? 'today' : 'other'} />
                  ))}
                </Space>
              )}
            </section>
          ))
      )}
    </Space>
  );
}

/** One job on the technician's list: when, who, where (maps) and how to reach them (tel:), and a way in. */
function JobCard({ job, day }: { job: Installation; day: 'today' | 'other' }) {
  const overdue = isOverdue(job);
  const when =
    day === 'today' && !overdue
      ? formatTimes(job.scheduled_start, job.scheduled_end)
      : job.scheduled_start
        ? formatSlot(job.scheduled_start, job.scheduled_end)
        : t('installations.unscheduled');
  return (
    <Card size="small" data-testid="job-card" data-job={job.number} styles={{ body: { padding: 12 } }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start" wrap>
        <Typography.Text strong data-testid="job-time">
          {when}
        </Typography.Text>
        <Space size={4} wrap>
          {overdue && <Typography.Text type="danger">{t('installations.overdue')}</Typography.Text>}
          <InstallationStatusTag status={job.status} />
        </Space>
      </Space>
      <Link
        to={detailPath(job.id)}
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 8,
          minHeight: TOUCH,
          fontSize: 16,
          fontWeight: 600,
          overflowWrap: 'anywhere',
        }}
      >
        <span>{`${job.number} · ${job.customer_name}`}</span>
        <RightOutlined aria-hidden className="mirror-rtl" />
      </Link>
      <Typography.Text type="secondary">{job.plan_name}</Typography.Text>
      <MapsLink address={job.address} />
      {job.contact_phone && <TelLink phone={job.contact_phone} />}
    </Card>
  );
}

function StaffInstallations() {
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <PageTitle>{t('installations.title')}</PageTitle>
      <Tabs
        items={[
          { key: 'table', label: t('installations.tab.table'), children: <StaffInstallationTable /> },
          { key: 'calendar', label: t('installations.tab.calendar'), children: <InstallationCalendar /> },
        ]}
      />
    </Space>
  );
}
