/**
 * /dashboard/installation/{id}: the job (address as a maps link, the contact's phone as a tel: link), the status
 * changes the caller may make now (StatusActions), the technician's work (checklist, notes, equipment,
 * readings) and photos (JobPhotos). Laid out for a phone in the field as much as for a desk.
 */
import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Descriptions, Form, Input, InputNumber, Space, Spin, Typography } from 'antd';
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { useEffect, useRef, useState, type MutableRefObject } from 'react';
import { Link, useParams } from 'react-router';
import type { InstallationDetail as Job } from '../../contract/schemas/installation';
import { t } from '../../src/i18n';
import { useViewer } from '../tickets/ui';
import { installationUrl, useInstallation, useInstallationCall } from './api';
import { JobPhotos } from './JobPhotos';
import { AssignModal } from './StaffInstallations';
import { StatusActions, type PendingWork } from './StatusActions';
import { formatSlot, InstallationStatusTag, MapsLink, TelLink, TOUCH, useIsPhone } from './ui';
import { formatDateTime, formatDay } from '../../src/components/dates';
import { HeaderTitle, SectionHeading } from '../../src/components/Text';

export function InstallationDetail() {
  const { id = '' } = useParams();
  const { job, isLoading, error } = useInstallation(id);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Link to="/dashboard/installations">
        <ArrowLeftOutlined className="mirror-rtl" /> {t('installations.back')}
      </Link>
      {isLoading ? (
        <Card>
          <Spin />
        </Card>
      ) : !job ? (
        <Alert type="error" showIcon message={error || t('installations.notFound')} />
      ) : (
        <JobView job={job} />
      )}
    </Space>
  );
}

function JobView({ job }: { job: Job }) {
  const viewer = useViewer();
  const phone = useIsPhone();
  const staff = viewer?.role !== 'technician';
  const closed = job.status === 'completed' || job.status === 'cancelled';
  const [assigning, setAssigning] = useState(false);
  // The work form's unsaved notes and fields, and its ticks, for the status change to save and check first.
  const work = useRef<PendingWork | null>(null);
  return (
    <>
      <Card
        title={
          <Space wrap>
            <HeaderTitle>{job.number}</HeaderTitle>
            <InstallationStatusTag status={job.status} />
          </Space>
        }
        extra={
          staff && !closed ? <Button onClick={() => setAssigning(true)}>{t('installations.assign')}</Button> : null
        }
        styles={phone ? { body: { padding: 12 } } : undefined}
        style={{ marginBottom: 16 }}
      >
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions
            bordered
            column={1}
            size="small"
            layout={phone ? 'vertical' : 'horizontal'}
            data-testid="installation-details"
          >
            <Descriptions.Item label={t('installations.fields.slot')}>
              {formatSlot(job.scheduled_start, job.scheduled_end)}
            </Descriptions.Item>
            <Descriptions.Item label={t('installations.fields.customer')}>
              <span style={{ overflowWrap: 'anywhere' }}>
                {job.customer_name} <Typography.Text type="secondary">({job.customer_email})</Typography.Text>
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('installations.fields.address')}>
              <MapsLink address={job.address} />
            </Descriptions.Item>
            <Descriptions.Item label={t('installations.fields.phone')}>
              {job.contact_phone ? <TelLink phone={job.contact_phone} /> : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('installations.fields.plan')}>
              {staff ? (
                <Link to={`/dashboard/subscription/${job.subscription_id}`}>{job.plan_name}</Link>
              ) : (
                job.plan_name
              )}
            </Descriptions.Item>
            {job.preferred_date && (
              <Descriptions.Item label={t('installations.fields.preferredDate')}>
                {formatDay(job.preferred_date)}
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('installations.fields.technician')}>
              {job.technician_name ?? t('installations.unassigned')}
            </Descriptions.Item>
            {job.failure_reason && (
              <Descriptions.Item label={t('installations.fields.failureReason')}>
                {job.failure_reason}
              </Descriptions.Item>
            )}
            {job.completed_at && (
              <Descriptions.Item label={t('installations.fields.completedAt')}>
                {formatDateTime(job.completed_at)}
              </Descriptions.Item>
            )}
          </Descriptions>
          <StatusActions job={job} work={work} />
        </Space>
      </Card>
      <WorkForm job={job} readOnly={closed} work={work} />
      <JobPhotos job={job} readOnly={job.status === 'cancelled'} />
      {assigning && <AssignModal job={job} onClose={() => setAssigning(false)} />}
    </>
  );
}

const READINGS = ['signal_dbm', 'download_mbps', 'upload_mbps', 'latency_ms'] as const;

interface WorkValues {
  notes: string | null;
  equipment: Array<{ type: string; serial: string; mac: string | null }>;
  readings: Partial<Record<(typeof READINGS)[number], number | null>>;
}

function WorkForm({
  job,
  readOnly,
  work,
}: {
  job: Job;
  readOnly: boolean;
  work: MutableRefObject<PendingWork | null>;
}) {
  const phone = useIsPhone();
  const [form] = Form.useForm<WorkValues>();
  const { run, isPending } = useInstallationCall();
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    form.setFieldsValue({ notes: job.notes, equipment: job.equipment, readings: job.readings });
  }, [form, job]);

  // The checklist saves each tick as it is ticked (PATCH, shown at once; on failure the tick is undone and
  // the reason shown). Ticks go out one after another, each with the whole list as it then stands.
  const [checklist, setChecklist] = useState(job.checklist);
  const latest = useRef(job.checklist);
  const ticking = useRef(0);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const [tickError, setTickError] = useState<string | null>(null);
  const { mutateAsync: patch } = useCustomMutation();
  const show = (next: Job['checklist']) => {
    latest.current = next;
    setChecklist(next);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: show is a new function each render; only a new checklist from the server matters
  useEffect(() => {
    if (ticking.current === 0) show(job.checklist);
  }, [job.checklist]);
  const tick = (index: number, done: boolean) => {
    setTickError(null);
    show(latest.current.map((c, i) => (i === index ? { ...c, done } : c)));
    ticking.current += 1;
    queue.current = queue.current.then(async () => {
      try {
        await patch({
          url: installationUrl(job.id),
          method: 'patch',
          values: { checklist: latest.current },
          meta: { fallbackMessage: t('errors.installations.update') },
          successNotification: false,
          errorNotification: false,
        });
      } catch (error) {
        const item = latest.current[index]?.item ?? '';
        show(latest.current.map((c, i) => (i === index ? { ...c, done: !done } : c)));
        setTickError(
          t('installations.tickFailed', {
            item,
            reason: (error as HttpError)?.message || t('errors.installations.update'),
          }),
        );
      } finally {
        ticking.current -= 1;
      }
    });
  };

  const save = async (values: WorkValues): Promise<boolean> => {
    const done = await run({
      url: installationUrl(job.id),
      method: 'put',
      values: {
        notes: values.notes || null,
        equipment: (values.equipment ?? []).map((e) => ({ type: e.type, serial: e.serial, mac: e.mac || null })),
        readings: Object.fromEntries(READINGS.map((k) => [k, values.readings?.[k] ?? null])),
      },
      success: t('installations.saved'),
      fallbackKey: 'errors.installations.update',
    });
    if (done) setDirty(false);
    return done !== undefined;
  };
  work.current = {
    unticked: () => latest.current.filter((c) => !c.done).map((c) => c.item),
    savePending: async () => {
      await queue.current;
      if (!dirty) return true;
      const values = await form.validateFields().catch(() => null);
      return values ? save({ ...form.getFieldsValue(true), ...values }) : false;
    },
  };
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(values) => void save(values)}
      onValuesChange={() => setDirty(true)}
      disabled={readOnly}
      initialValues={{ notes: job.notes, equipment: job.equipment, readings: job.readings }}
    >
      <Card
        title={<SectionHeading>{t('installations.checklist')}</SectionHeading>}
        size="small"
        style={{ marginBottom: 16 }}
        data-testid="installation-checklist"
      >
        {!readOnly && checklist.length > 0 && (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
            {t('installations.checklistHint')}
          </Typography.Paragraph>
        )}
        {tickError && (
          <Alert
            type="error"
            showIcon
            role="alert"
            message={tickError}
            style={{ marginBottom: 8 }}
            closable
            onClose={() => setTickError(null)}
          />
        )}
        {checklist.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the job's fixed checklist, ticked by position (item texts may repeat)
          <div key={`${i}-${c.item}`}>
            <Checkbox
              checked={c.done}
              disabled={readOnly}
              onChange={(e) => tick(i, e.target.checked)}
              style={{ display: 'flex', alignItems: 'center', minHeight: TOUCH }}
            >
              {c.item}
            </Checkbox>
          </div>
        ))}
      </Card>
      <Card
        title={<SectionHeading>{t('installations.equipment')}</SectionHeading>}
        size="small"
        style={{ marginBottom: 16 }}
      >
        <Form.List name="equipment">
          {(fields, { add, remove }) => (
            <>
              {fields.length === 0 && (
                <Typography.Text type="secondary">{t('installations.equipment.none')}</Typography.Text>
              )}
              {fields.map((f) => (
                <Space
                  key={f.key}
                  wrap
                  align="start"
                  direction={phone ? 'vertical' : 'horizontal'}
                  style={phone ? { width: '100%', marginBottom: 8 } : undefined}
                >
                  <Form.Item
                    name={[f.name, 'type']}
                    rules={[{ required: true, message: t('installations.equipment.type') }]}
                  >
                    <Input
                      placeholder={t('installations.equipment.type')}
                      aria-label={t('installations.equipment.type')}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'serial']}
                    rules={[{ required: true, message: t('installations.equipment.serial') }]}
                  >
                    <Input
                      placeholder={t('installations.equipment.serial')}
                      aria-label={t('installations.equipment.serial')}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'mac']}>
                    <Input
                      placeholder={t('installations.equipment.mac')}
                      aria-label={t('installations.equipment.mac')}
                    />
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined aria-hidden />}
                    onClick={() => remove(f.name)}
                    aria-label={t('installations.equipment.remove')}
                    style={{ minHeight: TOUCH, minWidth: TOUCH }}
                  />
                </Space>
              ))}
              <div>
                <Button
                  size="large"
                  block={phone}
                  style={{ minHeight: TOUCH }}
                  onClick={() => add({ type: '', serial: '', mac: '' })}
                >
                  {t('installations.equipment.add')}
                </Button>
              </div>
            </>
          )}
        </Form.List>
      </Card>
      <Card
        title={<SectionHeading>{t('installations.readings')}</SectionHeading>}
        size="small"
        style={{ marginBottom: 16 }}
      >
        <Space wrap direction={phone ? 'vertical' : 'horizontal'} style={phone ? { width: '100%' } : undefined}>
          {READINGS.map((k) => (
            <Form.Item key={k} name={['readings', k]} label={t(`installations.readings.${k}`)}>
              <InputNumber aria-label={t(`installations.readings.${k}`)} style={{ width: phone ? '100%' : 180 }} />
            </Form.Item>
          ))}
        </Space>
      </Card>
      <Card
        title={<SectionHeading>{t('installations.fields.notes')}</SectionHeading>}
        size="small"
        style={{ marginBottom: 16 }}
      >
        <Form.Item name="notes">
          <Input.TextArea rows={3} aria-label={t('installations.fields.notes')} />
        </Form.Item>
        {!readOnly && (
          <Button
            type="primary"
            htmlType="submit"
            size="large"
            block={phone}
            style={{ minHeight: TOUCH }}
            loading={isPending}
          >
            {t('installations.save')}
          </Button>
        )}
      </Card>
    </Form>
  );
}
