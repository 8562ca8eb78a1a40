/**
 * /dashboard/installation/{id}: the job, the status actions the caller may take now (from the server's
 * next_statuses), the technician's work (checklist, notes, equipment, readings) and photos with upload progress.
 */
import { ArrowLeftOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Descriptions, Form, Image, Input, InputNumber, Modal, Popconfirm, Progress, Space, Spin, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { InstallationDetail as Job, InstallationPhoto, InstallationStatus } from '../../contract/schemas/installation';
import { useNotification } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { t } from '../../src/i18n';
import { useViewer } from '../tickets/ui';
import { installationUrl, photoObjectUrl, uploadPhotos, useInstallation, useInstallationCall } from './api';
import { AssignModal } from './StaffInstallations';
import { formatSlot, InstallationStatusTag } from './ui';

export function InstallationDetail() {
  const { id = '' } = useParams();
  const { job, isLoading, error } = useInstallation(id);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Link to="/dashboard/installations"><ArrowLeftOutlined /> {t('installations.back')}</Link>
      {isLoading ? <Card><Spin /></Card> : !job ? <Alert type="error" showIcon message={error || t('installations.notFound')} /> : <JobView job={job} />}
    </Space>
  );
}

function JobView({ job }: { job: Job }) {
  const viewer = useViewer();
  const staff = viewer?.role !== 'technician';
  const closed = job.status === 'completed' || job.status === 'cancelled';
  const [assigning, setAssigning] = useState(false);
  return (
    <>
      <Card
        title={<Space wrap><span>{job.number}</span><InstallationStatusTag status={job.status} /></Space>}
        extra={
          <Space wrap>
            {staff && !closed && <Button onClick={() => setAssigning(true)}>{t('installations.assign')}</Button>}
            <StatusActions job={job} />
          </Space>
        }
      >
        <Descriptions bordered column={1} size="small" data-testid="installation-details">
          <Descriptions.Item label={t('installations.fields.customer')}>{job.customer_name} <Typography.Text type="secondary">({job.customer_email})</Typography.Text></Descriptions.Item>
          <Descriptions.Item label={t('installations.fields.plan')}>
            {staff ? <Link to={`/dashboard/subscription/${job.subscription_id}`}>{job.plan_name}</Link> : job.plan_name}
          </Descriptions.Item>
          <Descriptions.Item label={t('installations.fields.address')}>{job.address}</Descriptions.Item>
          <Descriptions.Item label={t('installations.fields.phone')}>{job.contact_phone ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('installations.fields.preferredDate')}>{job.preferred_date ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('installations.fields.slot')}>{formatSlot(job.scheduled_start, job.scheduled_end)}</Descriptions.Item>
          <Descriptions.Item label={t('installations.fields.technician')}>{job.technician_name ?? t('installations.unassigned')}</Descriptions.Item>
          {job.failure_reason && <Descriptions.Item label={t('installations.fields.failureReason')}>{job.failure_reason}</Descriptions.Item>}
          {job.completed_at && <Descriptions.Item label={t('installations.fields.completedAt')}>{new Date(job.completed_at).toLocaleString()}</Descriptions.Item>}
        </Descriptions>
      </Card>
      <WorkForm job={job} readOnly={closed} />
      <Photos job={job} readOnly={job.status === 'cancelled'} />
      {assigning && <AssignModal job={job} onClose={() => setAssigning(false)} />}
    </>
  );
}

function StatusActions({ job }: { job: Job }) {
  const { run, isPending } = useInstallationCall();
  const [failing, setFailing] = useState(false);
  const [reason, setReason] = useState('');
  const change = (status: InstallationStatus, extra: Record<string, unknown> = {}) =>
    run({ url: `${installationUrl(job.id)}/status`, method: 'patch', values: { status, ...extra }, success: t(`installations.status.${status}`), fallbackKey: 'errors.installations.status' });
  return (
    <>
      {job.next_statuses.map((s) =>
        s === 'failed' ? (
          <Button key={s} danger onClick={() => setFailing(true)}>{t('installations.action.failed')}</Button>
        ) : s === 'completed' ? (
          <Popconfirm key={s} title={t('installations.confirmComplete')} onConfirm={() => change(s)}>
            <Button type="primary" loading={isPending}>{t('installations.action.completed')}</Button>
          </Popconfirm>
        ) : (
          <Button key={s} loading={isPending} onClick={() => change(s)}>{t(`installations.action.${s}`)}</Button>
        ),
      )}
      <Modal
        open={failing}
        title={t('installations.failTitle')}
        okButtonProps={{ danger: true, disabled: !reason.trim() }}
        okText={t('installations.action.failed')}
        onCancel={() => setFailing(false)}
        onOk={async () => {
          if (await change('failed', { failure_reason: reason.trim() })) setFailing(false);
        }}
      >
        <Typography.Paragraph type="secondary">{t('installations.failHint')}</Typography.Paragraph>
        <Input.TextArea rows={4} value={reason} onChange={(e) => setReason(e.target.value)} aria-label={t('installations.fields.failureReason')} />
      </Modal>
    </>
  );
}

const READINGS = ['signal_dbm', 'download_mbps', 'upload_mbps', 'latency_ms'] as const;

interface WorkValues {
  checklist: Job['checklist'];
  notes: string | null;
  equipment: Array<{ type: string; serial: string; mac: string | null }>;
  readings: Partial<Record<(typeof READINGS)[number], number | null>>;
}

function WorkForm({ job, readOnly }: { job: Job; readOnly: boolean }) {
  const [form] = Form.useForm<WorkValues>();
  const { run, isPending } = useInstallationCall();
  useEffect(() => {
    form.setFieldsValue({ checklist: job.checklist, notes: job.notes, equipment: job.equipment, readings: job.readings });
  }, [form, job]);
  const save = (values: WorkValues) =>
    run({
      url: installationUrl(job.id),
      method: 'put',
      values: {
        checklist: values.checklist,
        notes: values.notes || null,
        equipment: (values.equipment ?? []).map((e) => ({ type: e.type, serial: e.serial, mac: e.mac || null })),
        readings: Object.fromEntries(READINGS.map((k) => [k, values.readings?.[k] ?? null])),
      },
      success: t('installations.saved'),
      fallbackKey: 'errors.installations.update',
    });
  return (
    <Form form={form} layout="vertical" onFinish={save} disabled={readOnly} initialValues={{ checklist: job.checklist, notes: job.notes, equipment: job.equipment, readings: job.readings }}>
      <Card title={t('installations.checklist')} size="small" style={{ marginBottom: 16 }}>
        <Form.List name="checklist">
          {(fields) =>
            fields.map((f) => (
              <Form.Item key={f.key} name={[f.name, 'done']} valuePropName="checked" style={{ marginBottom: 4 }}>
                <Checkbox>{job.checklist[f.name]?.item ?? form.getFieldValue(['checklist', f.name, 'item'])}</Checkbox>
              </Form.Item>
            ))
          }
        </Form.List>
      </Card>
      <Card title={t('installations.equipment')} size="small" style={{ marginBottom: 16 }}>
        <Form.List name="equipment">
          {(fields, { add, remove }) => (
            <>
              {fields.length === 0 && <Typography.Text type="secondary">{t('installations.equipment.none')}</Typography.Text>}
              {fields.map((f) => (
                <Space key={f.key} wrap align="start">
                  <Form.Item name={[f.name, 'type']} rules={[{ required: true, message: t('installations.equipment.type') }]}><Input placeholder={t('installations.equipment.type')} aria-label={t('installations.equipment.type')} /></Form.Item>
                  <Form.Item name={[f.name, 'serial']} rules={[{ required: true, message: t('installations.equipment.serial') }]}><Input placeholder={t('installations.equipment.serial')} aria-label={t('installations.equipment.serial')} /></Form.Item>
                  <Form.Item name={[f.name, 'mac']}><Input placeholder={t('installations.equipment.mac')} aria-label={t('installations.equipment.mac')} /></Form.Item>
                  <Button onClick={() => remove(f.name)}>−</Button>
                </Space>
              ))}
              <div><Button onClick={() => add({ type: '', serial: '', mac: '' })}>{t('installations.equipment.add')}</Button></div>
            </>
          )}
        </Form.List>
      </Card>
      <Card title={t('installations.readings')} size="small" style={{ marginBottom: 16 }}>
        <Space wrap>
          {READINGS.map((k) => (
            <Form.Item key={k} name={['readings', k]} label={t(`installations.readings.${k}`)}>
              <InputNumber aria-label={t(`installations.readings.${k}`)} style={{ width: 180 }} />
            </Form.Item>
          ))}
        </Space>
      </Card>
      <Card title={t('installations.fields.notes')} size="small" style={{ marginBottom: 16 }}>
        <Form.Item name="notes"><Input.TextArea rows={3} aria-label={t('installations.fields.notes')} /></Form.Item>
        {!readOnly && <Button type="primary" htmlType="submit" loading={isPending}>{t('installations.save')}</Button>}
      </Card>
    </Form>
  );
}

function PhotoThumb({ photo }: { photo: InstallationPhoto }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    photoObjectUrl(photo)
      .then((u) => {
        url = u;
        if (live) setSrc(u);
      })
      .catch(() => {});
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [photo]);
  return src ? <Image width={120} src={src} alt={photo.name} /> : <Spin size="small" />;
}

function Photos({ job, readOnly }: { job: Job; readOnly: boolean }) {
  const [progress, setProgress] = useState<number | null>(null);
  const { open } = useNotification();
  const queryClient = useQueryClient();
  const send = async (files: File[]) => {
    setProgress(0);
    try {
      await uploadPhotos(job.id, files, setProgress);
      open?.({ type: 'success', message: t('installations.photos.uploaded') });
      void queryClient.invalidateQueries();
    } catch (error) {
      open?.({ type: 'error', message: (error as Error)?.message || t('installations.photos.failed') });
    } finally {
      setProgress(null);
    }
  };
  return (
    <Card title={t('installations.photos')} size="small">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap data-testid="installation-photos">
          {job.photos.length === 0 ? <Typography.Text type="secondary">{t('installations.photos.none')}</Typography.Text> : job.photos.map((p) => <PhotoThumb key={p.id} photo={p} />)}
        </Space>
        {!readOnly && (
          <>
            <Upload
              multiple
              accept="image/png,image/jpeg,image/gif,image/webp"
              showUploadList={false}
              beforeUpload={(file, list) => {
                if (file === list[list.length - 1]) void send(list as unknown as File[]);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} disabled={progress !== null}>{t('installations.photos.upload')}</Button>
            </Upload>
            <Typography.Text type="secondary">{t('installations.photos.hint')}</Typography.Text>
            {progress !== null && <Progress percent={progress} size="small" data-testid="photo-progress" />}
          </>
        )}
      </Space>
    </Card>
  );
}
