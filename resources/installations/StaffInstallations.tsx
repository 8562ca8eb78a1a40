/** Admin/support: every installation job in a filterable table with assignment, and a calendar of the slots. */
import { Badge, Button, Calendar, DatePicker, Form, Input, Modal, Space, Table } from 'antd';
import { FormSelect } from '../../src/components/FormSelect';
import { useCustom } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { openingRow } from '../../src/components/resource';
import { INSTALLATION_STATUSES, type Installation, type InstallationStatus } from '../../contract/schemas/installation';
import { t } from '../../src/i18n';
import { installationUrl, useInstallationCall, useInstallations, useTechnicians } from './api';
import { detailPath, formatSlot, InstallationStatusTag } from './ui';
import { formatTime } from '../../src/components/dates';

export function StaffInstallationTable() {
  const navigate = useNavigate();
  const [status, setStatus] = useState<InstallationStatus | undefined>();
  const [technician, setTechnician] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState(1);
  const [assigning, setAssigning] = useState<Installation | null>(null);
  const [creating, setCreating] = useState(false);
  const { technicians } = useTechnicians(true);
  const { items, pagination, isLoading } = useInstallations({
    status,
    technician_id: technician,
    search: search || undefined,
    from: range?.[0].format('YYYY-MM-DD'),
    to: range?.[1].format('YYYY-MM-DD'),
    page,
    limit: 20,
  });
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Space wrap>
        <Input.Search
          allowClear
          placeholder={t('installations.filters.search')}
          onSearch={(v) => {
            setSearch(v);
            setPage(1);
          }}
          style={{ width: 280, maxWidth: '100%' }}
          aria-label={t('installations.filters.search')}
        />
        <FormSelect
          allowClear
          placeholder={t('installations.filters.status')}
          style={{ width: 170, maxWidth: '100%' }}
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          options={INSTALLATION_STATUSES.map((s) => ({ value: s, label: t(`installations.status.${s}`) }))}
          aria-label={t('installations.fields.status')}
        />
        <FormSelect
          allowClear
          placeholder={t('installations.filters.technician')}
          style={{ width: 200, maxWidth: '100%' }}
          value={technician}
          onChange={(v) => {
            setTechnician(v);
            setPage(1);
          }}
          options={technicians.map((u) => ({ value: u.id, label: u.name }))}
          aria-label={t('installations.fields.technician')}
        />
        <DatePicker.RangePicker
          style={{ maxWidth: '100%' }}
          value={range}
          onChange={(v) => {
            setRange(v?.[0] && v[1] ? [v[0], v[1]] : null);
            setPage(1);
          }}
        />
        <Button type="primary" onClick={() => setCreating(true)}>
          {t('installations.new')}
        </Button>
      </Space>
      <Table<Installation>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={isLoading}
        dataSource={items}
        onRow={openingRow((r) => navigate(detailPath(r.id)))}
        locale={{ emptyText: t('installations.empty') }}
        pagination={{
          current: page,
          pageSize: 20,
          total: pagination?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          {
            key: 'number',
            title: t('installations.fields.number'),
            render: (_, r) => <Link to={detailPath(r.id)}>{r.number}</Link>,
          },
          { key: 'customer', title: t('installations.fields.customer'), dataIndex: 'customer_name' },
          { key: 'address', title: t('installations.fields.address'), dataIndex: 'address', responsive: ['md'] },
          {
            key: 'status',
            title: t('installations.fields.status'),
            render: (_, r) => <InstallationStatusTag status={r.status} />,
          },
          {
            key: 'slot',
            title: t('installations.fields.slot'),
            render: (_, r) => formatSlot(r.scheduled_start, r.scheduled_end),
          },
          {
            key: 'technician',
            title: t('installations.fields.technician'),
            render: (_, r) => r.technician_name ?? t('installations.unassigned'),
          },
          {
            key: 'actions',
            title: '',
            render: (_, r) =>
              r.status === 'completed' || r.status === 'cancelled' ? null : (
                <Button size="small" onClick={() => setAssigning(r)} data-testid={`assign-${r.number}`}>
                  {t('installations.assign')}
                </Button>
              ),
          },
        ]}
      />
      {assigning && <AssignModal job={assigning} onClose={() => setAssigning(null)} />}
      {creating && <NewInstallationModal onClose={() => setCreating(false)} />}
    </Space>
  );
}

/** The technician and time slot as the API takes them (null: none). */
function scheduleValues(v: { technician_id?: string | null; slot?: [Dayjs, Dayjs] | null }) {
  return {
    technician_id: v.technician_id ?? null,
    scheduled_start: v.slot ? v.slot[0].toISOString() : null,
    scheduled_end: v.slot ? v.slot[1].toISOString() : null,
  };
}

/** The technician and time-slot fields of the assign and new-job dialogs. */
function ScheduleFields({ technicians }: { technicians: Array<{ id: string; name: string }> }) {
  return (
    <>
      <Form.Item name="technician_id" label={t('installations.fields.technician')}>
        <FormSelect allowClear options={technicians.map((u) => ({ value: u.id, label: u.name }))} />
      </Form.Item>
      <Form.Item name="slot" label={t('installations.fields.slot')}>
        <DatePicker.RangePicker showTime={{ format: 'HH:mm', minuteStep: 15 }} format="YYYY-MM-DD HH:mm" />
      </Form.Item>
    </>
  );
}

/** Technician and slot; saving a requested job with both schedules it. */
export function AssignModal({
  job,
  onClose,
}: {
  job: Pick<Installation, 'id' | 'number' | 'technician_id' | 'scheduled_start' | 'scheduled_end'>;
  onClose: () => void;
}) {
  const { technicians } = useTechnicians(true);
  const { run, isPending } = useInstallationCall();
  const [form] = Form.useForm<{ technician_id?: string | null; slot?: [Dayjs, Dayjs] | null }>();
  const submit = async (values: { technician_id?: string | null; slot?: [Dayjs, Dayjs] | null }) => {
    const done = await run({
      url: `${installationUrl(job.id)}/assign`,
      method: 'patch',
      values: scheduleValues(values),
      success: t('installations.saved'),
      fallbackKey: 'errors.installations.assign',
    });
    if (done) onClose();
  };
  return (
    <Modal
      open
      title={`${t('installations.assignTitle')} · ${job.number}`}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('installations.save')}
      confirmLoading={isPending}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          technician_id: job.technician_id ?? undefined,
          slot:
            job.scheduled_start && job.scheduled_end ? [dayjs(job.scheduled_start), dayjs(job.scheduled_end)] : null,
        }}
      >
        <ScheduleFields technicians={technicians} />
      </Form>
    </Modal>
  );
}

/** The month's scheduled slots (antd Calendar); a day lists its jobs, each linking to its detail. */
export function InstallationCalendar() {
  const [month, setMonth] = useState(() => dayjs().startOf('month'));
  const { items } = useInstallations({
    from: month.startOf('month').subtract(7, 'day').format('YYYY-MM-DD'),
    to: month.endOf('month').add(7, 'day').format('YYYY-MM-DD'),
    limit: 200,
  });
  const scheduled = items.filter((i) => i.scheduled_start);
  // A month of seven columns needs about 700 px: on a phone it scrolls inside its own box, not the page.
  return (
    <div style={{ overflowX: 'auto' }}>
      <Calendar
        value={month}
        onPanelChange={(d) => setMonth(d.startOf('month'))}
        onSelect={(d) => setMonth(d.startOf('month'))}
        cellRender={(date, info) => {
          if (info.type !== 'date') return info.originNode;
          const jobs = scheduled.filter((j) => dayjs(j.scheduled_start!).isSame(date, 'day'));
          return (
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {jobs.map((j) => (
                <li key={j.id}>
                  <Link to={detailPath(j.id)}>
                    <Badge
                      status={j.status === 'completed' ? 'success' : j.status === 'failed' ? 'error' : 'processing'}
                      text={`${formatTime(j.scheduled_start)} ${j.number} ${j.technician_name ?? ''}`}
                    />
                  </Link>
                </li>
              ))}
            </ul>
          );
        }}
        style={{ minWidth: 700 }}
      />
    </div>
  );
}

/** Admin/support schedule a job by hand, e.g. for a subscription created without a location. */
export function NewInstallationModal({ onClose }: { onClose: () => void }) {
  const [search, setSearch] = useState('');
  const { technicians } = useTechnicians(true);
  const { run, isPending } = useInstallationCall();
  const { query, result } = useCustom<{
    items: Array<{ id: string; plan_name: string; user_name: string; location: string | null; status: string }>;
  }>({
    url: '/subscriptions',
    method: 'get',
    config: { query: { limit: 20, ...(search ? { search } : {}) } },
    errorNotification: false,
    queryOptions: { retry: false },
  });
  const subs = Array.isArray(result.data?.items) ? result.data.items : [];
  const [form] = Form.useForm<{
    subscription_id?: string;
    address?: string;
    contact_phone?: string;
    technician_id?: string | null;
    slot?: [Dayjs, Dayjs] | null;
  }>();
  const submit = async (v: {
    subscription_id?: string;
    address?: string;
    contact_phone?: string;
    technician_id?: string | null;
    slot?: [Dayjs, Dayjs] | null;
  }) => {
    const done = await run({
      url: '/installations',
      method: 'post',
      values: {
        subscription_id: v.subscription_id,
        address: v.address || null,
        contact_phone: v.contact_phone || null,
        ...scheduleValues(v),
      },
      success: t('installations.created'),
      fallbackKey: 'errors.installations.create',
    });
    if (done) onClose();
  };
  return (
    <Modal
      open
      title={t('installations.new')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('installations.save')}
      confirmLoading={isPending}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="subscription_id"
          label={t('installations.fields.subscription')}
          rules={[{ required: true, message: t('installations.subscriptionRequired') }]}
        >
          <FormSelect
            showSearch
            filterOption={false}
            onSearch={setSearch}
            loading={query.isLoading}
            aria-label={t('installations.fields.subscription')}
            options={subs.map((s) => ({
              value: s.id,
              label: `${s.user_name} · ${s.plan_name}${s.location ? ` · ${s.location}` : ''}`,
            }))}
            onChange={(id) => {
              const s = subs.find((x) => x.id === id);
              if (s?.location && !form.getFieldValue('address')) form.setFieldValue('address', s.location);
            }}
          />
        </Form.Item>
        <Form.Item name="address" label={t('installations.fields.address')}>
          <Input aria-label={t('installations.fields.address')} />
        </Form.Item>
        <Form.Item name="contact_phone" label={t('installations.fields.phone')}>
          <Input aria-label={t('installations.fields.phone')} />
        </Form.Item>
        <ScheduleFields technicians={technicians} />
      </Form>
    </Modal>
  );
}
