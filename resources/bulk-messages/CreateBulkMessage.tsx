import { useState } from 'react';
import { Alert, Checkbox, Form, Input, Modal, Typography } from 'antd';
import { Create } from '@refinedev/antd';
import { useCustom, useGo } from '@refinedev/core';
import {
  BULK_SEGMENTS_WITH_VALUE,
  bulkMessageCreateSchema,
  type BulkMessage,
  type BulkPreview,
  type BulkSegmentOptions,
} from '../../contract/schemas/bulk-message';
import {
  BULK_SEGMENTS,
  MESSAGE_CATEGORIES,
  MESSAGE_CHANNELS,
  type BulkSegment,
  type MessageCategory,
  type MessageChannel,
} from '../../contract/schemas/messaging';
import { FormSelect } from '../../src/components/FormSelect';
import { zodRules } from '../../src/components/resource';
import { HeaderTitle } from '../../src/components/Text';
import { errorToast, useToastedCall } from '../../src/components/toastedCall';
import { t, translateMessage } from '../../src/i18n';

interface FormValues {
  segment: BulkSegment;
  segment_value?: string;
  channels: MessageChannel[];
  category: MessageCategory;
  subject?: string;
  body?: string;
}

const RESOURCE = 'bulk-messages';
const s = bulkMessageCreateSchema.shape;
const needsValue = (segment?: BulkSegment) => (BULK_SEGMENTS_WITH_VALUE as readonly string[]).includes(segment ?? '');
/** useCustom's result before the first answer is not the answer's shape: only a real answer counts. */
const answer = <T,>(value: unknown, key: string): T | undefined =>
  value && typeof value === 'object' && key in value ? (value as T) : undefined;

/** The plans, NAS devices and areas the segment selects offer (GET /bulk-messages/segments). */
function useSegmentOptions(): BulkSegmentOptions {
  const { result } = useCustom<BulkSegmentOptions>({
    url: `/${RESOURCE}/segments`,
    method: 'get',
    meta: { fallbackMessage: t('bulkMessages.errors.list') },
    errorNotification: errorToast('bulkMessages.errors.list'),
  });
  return answer<BulkSegmentOptions>(result.data, 'plans') ?? { plans: [], nas: [], areas: [] };
}

/** How many customers the chosen segment reaches now (GET /bulk-messages/preview), read again on every change. */
function usePreview(segment: BulkSegment | undefined, value: string | undefined, category: MessageCategory) {
  const ready = !!segment && (!needsValue(segment) || !!value);
  const { result, query } = useCustom<BulkPreview>({
    url: `/${RESOURCE}/preview`,
    method: 'get',
    config: { query: { segment, ...(needsValue(segment) ? { segment_value: value } : {}), category } },
    meta: { fallbackMessage: t('bulkMessages.errors.preview') },
    errorNotification: errorToast('bulkMessages.errors.preview'),
    queryOptions: { enabled: ready },
  });
  return { preview: ready && !query.isError ? answer<BulkPreview>(result.data, 'recipients') : undefined };
}

/** POST /bulk-messages: the segment (with its plan, NAS or area), channels, category, subject and body; confirmed first. */
export function CreateBulkMessage() {
  const [form] = Form.useForm<FormValues>();
  const { run, isPending } = useToastedCall();
  const go = useGo();
  const options = useSegmentOptions();
  const segment = Form.useWatch('segment', form);
  const value = Form.useWatch('segment_value', form);
  const category = Form.useWatch('category', form) ?? 'service';
  const { preview } = usePreview(segment, value, category);
  const [confirming, setConfirming] = useState<FormValues | null>(null);

  const valueOptions =
    segment === 'plan'
      ? options.plans.map((p) => ({ value: p.id, label: p.name }))
      : segment === 'nas'
        ? options.nas.map((d) => ({ value: d.id, label: d.location ? `${d.name} (${d.location})` : d.name }))
        : options.areas.map((a) => ({ value: a, label: a }));
  const valueLabel = t(`bulkMessages.fields.${segment === 'plan' ? 'plan' : segment === 'nas' ? 'nas' : 'area'}`);
  const segmentName = (v: FormValues) => {
    const chosen = valueOptions.find((o) => o.value === v.segment_value)?.label;
    return chosen ? `${t(`bulkMessages.segment.${v.segment}`)}: ${chosen}` : t(`bulkMessages.segment.${v.segment}`);
  };

  const send = async (v: FormValues) => {
    setConfirming(null);
    const bulk = await run<BulkMessage>({
      url: `/${RESOURCE}`,
      method: 'post',
      values: {
        segment: v.segment,
        segment_value: needsValue(v.segment) ? v.segment_value : null,
        channels: v.channels,
        category: v.category,
        subject: v.subject,
        body: v.body,
      },
      success: t('bulkMessages.toast.created'),
      fallbackKey: 'bulkMessages.errors.create',
    });
    if (bulk) go({ to: { resource: RESOURCE, action: 'show', id: bulk.id } });
  };

  return (
    <Create
      goBack={false}
      title={<HeaderTitle>{t('bulkMessages.createTitle')}</HeaderTitle>}
      resource={RESOURCE}
      saveButtonProps={{
        onClick: () => form.submit(),
        loading: isPending,
        disabled: !preview?.recipients,
        children: t('bulkMessages.send'),
      }}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        style={{ maxWidth: 560 }}
        initialValues={{ segment: 'all', channels: ['email'], category: 'service' }}
        onFinish={(v) => setConfirming(v)}
      >
        <Form.Item
          name="segment"
          label={t('bulkMessages.fields.segment')}
          extra={t('bulkMessages.segmentHelp')}
          rules={zodRules(s.segment, { labelKey: 'bulkMessages.fields.segment' })}
        >
          <FormSelect
            options={BULK_SEGMENTS.map((v) => ({ value: v, label: t(`bulkMessages.segment.${v}`) }))}
            onChange={() => form.setFieldValue('segment_value', undefined)}
          />
        </Form.Item>
        {needsValue(segment) && (
          <Form.Item
            name="segment_value"
            label={valueLabel}
            rules={[{ required: true, message: t('resource.required', { field: valueLabel }) }]}
          >
            <FormSelect showSearch optionFilterProp="label" options={valueOptions} />
          </Form.Item>
        )}
        <Form.Item
          name="channels"
          label={t('bulkMessages.fields.channels')}
          // Not `required`: antd would put aria-required on the group's div, which ARIA does not allow there (axe).
          rules={[{ type: 'array', min: 1, message: translateMessage('Choose at least one channel') }]}
        >
          <Checkbox.Group
            options={MESSAGE_CHANNELS.map((c) => ({ value: c, label: t(`bulkMessages.channel.${c}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="category"
          label={t('bulkMessages.fields.category')}
          extra={t('bulkMessages.categoryHelp')}
          rules={zodRules(s.category, { labelKey: 'bulkMessages.fields.category' })}
        >
          <FormSelect options={MESSAGE_CATEGORIES.map((c) => ({ value: c, label: t(`bulkMessages.category.${c}`) }))} />
        </Form.Item>
        <Form.Item
          name="subject"
          label={t('bulkMessages.fields.subject')}
          rules={zodRules(s.subject, { labelKey: 'bulkMessages.fields.subject' })}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="body"
          label={t('bulkMessages.fields.body')}
          rules={zodRules(s.body, { labelKey: 'bulkMessages.fields.body' })}
        >
          <Input.TextArea rows={6} maxLength={5000} showCount />
        </Form.Item>
      </Form>
      <div aria-live="polite" data-testid="bulk-preview" style={{ maxWidth: 560 }}>
        {preview ? (
          <Alert
            type={preview.recipients ? 'info' : 'warning'}
            showIcon
            message={t('bulkMessages.preview.count', { n: preview.recipients })}
            description={MESSAGE_CHANNELS.map((c) =>
              t('bulkMessages.preview.reachable', {
                channel: t(`bulkMessages.channel.${c}`),
                n: preview.reachable[c] ?? 0,
              }),
            ).join(' · ')}
          />
        ) : (
          <Typography.Text type="secondary">{t('bulkMessages.preview.choose')}</Typography.Text>
        )}
      </div>
      <Modal
        open={!!confirming}
        title={t('bulkMessages.confirm.title')}
        okText={t('bulkMessages.send')}
        cancelText={t('resource.cancel')}
        onOk={() => confirming && send(confirming)}
        onCancel={() => setConfirming(null)}
      >
        {confirming && (
          <Typography.Paragraph>
            {t('bulkMessages.confirm.body', {
              n: preview?.recipients ?? 0,
              segment: segmentName(confirming),
              subject: confirming.subject ?? '',
            })}
          </Typography.Paragraph>
        )}
      </Modal>
    </Create>
  );
}
