import { useState } from 'react';
import { Button, Form, InputNumber, Result, Space, Typography } from 'antd';
import { Create } from '@refinedev/antd';
import { useGo, useList } from '@refinedev/core';
import type { Plan } from '../../contract/schemas/plan';
import { voucherBatchCreateSchema, type VoucherBatch } from '../../contract/schemas/vouchers';
import { FormSelect } from '../../src/components/FormSelect';
import { MoneyInput, zodRules } from '../../src/components/resource';
import { useToastedCall } from '../../src/components/toastedCall';
import { t, translateMessage } from '../../src/i18n';
import { BATCHES } from './api';
import { vouchersResource as decl } from './resource';
import { BatchProgress, DownloadCodes, useLiveBatch } from './ui';
import { HeaderTitle } from '../../src/components/Text';

type Unit = 'minutes' | 'hours' | 'days';
const UNIT_MINUTES: Record<Unit, number> = { minutes: 1, hours: 60, days: 1440 };

interface FormValues {
  plan_id?: string;
  count?: number;
  validity?: number | null;
  unit: Unit;
  data_allowance_mb?: number | null;
  price?: number | null;
  code_length?: number;
}

const s = voucherBatchCreateSchema.shape;
const rules = (schema: (typeof s)[keyof typeof s], labelKey: string) => zodRules(schema, { labelKey });
/** The validity in minutes, as the server checks it. */
const toMinutes = (v: FormValues) => (v.validity == null ? null : Math.round(v.validity * UNIT_MINUTES[v.unit]));

/**
 * The batch just created: how many, and the one-hour downloads; a large batch (202) shows its progress first,
 * read again every second, and the downloads once its job has made every code.
 */
function Created({ batch: created }: { batch: VoucherBatch }) {
  const batch = useLiveBatch(created);
  const ready = batch.status === 'ready';
  return (
    <div data-testid="batch-created">
      <Result
        status={ready ? 'success' : 'info'}
        title={t(ready ? 'vouchers.created.title' : 'vouchers.generating.accepted', { count: batch.count })}
        subTitle={batch.plan_name}
        extra={
          <div style={{ maxWidth: 560, margin: '0 auto', textAlign: 'start' }}>
            {ready ? <DownloadCodes batch={batch} note="vouchers.created.note" /> : <BatchProgress batch={batch} />}
          </div>
        }
      />
    </div>
  );
}

/** POST /vouchers/batches: plan, count, validity from first use and/or data allowance, price, code length. */
export function CreateBatch() {
  const [form] = Form.useForm<FormValues>();
  const { run, isPending } = useToastedCall();
  const [created, setCreated] = useState<VoucherBatch | null>(null);
  const go = useGo();
  const { result } = useList<Plan>({
    resource: 'plans',
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
    sorters: [{ field: 'sort_order', order: 'asc' }],
  });
  const plans = result.data ?? [];
  const planId = Form.useWatch('plan_id', form);
  const currency = plans.find((p) => p.id === planId)?.currency ?? 'USD';

  const submit = async (v: FormValues) => {
    const batch = await run<VoucherBatch>({
      url: `/${BATCHES}`,
      method: 'post',
      values: {
        plan_id: v.plan_id,
        count: v.count,
        validity_minutes: toMinutes(v),
        data_allowance_mb: v.data_allowance_mb ?? null,
        price: v.price ?? 0,
        currency,
        code_length: v.code_length,
      },
      success: t('vouchers.toast.created'),
      fallbackKey: 'errors.vouchers.create',
    });
    if (batch) setCreated(batch);
  };

  return (
    <Create
      goBack={false}
      title={<HeaderTitle>{t('vouchers.createTitle')}</HeaderTitle>}
      resource={decl.name}
      // Once created, the footer leads on: to the batch, or to another one.
      footerButtons={
        created ? (
          <Space wrap>
            <Button
              onClick={() => {
                form.resetFields();
                setCreated(null);
              }}
            >
              {t('vouchers.another')}
            </Button>
            <Button onClick={() => go({ to: { resource: decl.name, action: 'show', id: created.id } })}>
              {t('vouchers.open')}
            </Button>
          </Space>
        ) : undefined
      }
      saveButtonProps={{ onClick: () => form.submit(), loading: isPending, children: t('vouchers.create') }}
    >
      {created ? (
        <Created batch={created} />
      ) : (
        <Form<FormValues>
          form={form}
          layout="vertical"
          onFinish={submit}
          style={{ maxWidth: 520 }}
          initialValues={{ count: 100, unit: 'days', validity: 30, code_length: 10, price: 0 }}
        >
          <Form.Item
            name="plan_id"
            label={t('vouchers.fields.plan')}
            rules={[{ required: true, message: t('resource.required', { field: t('vouchers.fields.plan') }) }]}
          >
            <FormSelect
              showSearch
              optionFilterProp="label"
              options={plans.map((p) => ({ value: p.id, label: p.name }))}
            />
          </Form.Item>
          <Form.Item name="count" label={t('vouchers.fields.count')} rules={rules(s.count, 'vouchers.fields.count')}>
            <InputNumber min={1} max={100_000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item label={t('vouchers.fields.validity')} extra={t('vouchers.fields.validityHelp')} required={false}>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item
                name="validity"
                noStyle
                dependencies={['data_allowance_mb']}
                rules={[
                  {
                    validator: async (_r, value: number | null | undefined) => {
                      const v = form.getFieldsValue();
                      if (value == null && v.data_allowance_mb == null)
                        throw new Error(t('vouchers.fields.termsRequired'));
                      if (value != null) {
                        const checked = s.validity_minutes.safeParse(toMinutes({ ...v, validity: value }));
                        if (!checked.success) throw new Error(translateMessage(checked.error.issues[0]?.message ?? ''));
                      }
                    },
                  },
                ]}
              >
                <InputNumber
                  min={1}
                  precision={0}
                  style={{ width: '60%' }}
                  aria-label={t('vouchers.fields.validity')}
                />
              </Form.Item>
              <Form.Item name="unit" noStyle>
                <FormSelect
                  style={{ width: '40%' }}
                  aria-label={t('vouchers.fields.validityUnit')}
                  options={(['minutes', 'hours', 'days'] as const).map((u) => ({
                    value: u,
                    label: t(`vouchers.unit.${u}`),
                  }))}
                />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
          <Form.Item
            name="data_allowance_mb"
            label={t('vouchers.fields.data')}
            extra={t('vouchers.fields.dataHelp')}
            rules={rules(s.data_allowance_mb, 'vouchers.fields.data')}
          >
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="price"
            label={t('vouchers.fields.price')}
            extra={t('vouchers.fields.priceHelp')}
            rules={rules(s.price, 'vouchers.fields.price')}
          >
            <MoneyInput currency={currency} />
          </Form.Item>
          <Form.Item
            name="code_length"
            label={t('vouchers.fields.codeLength')}
            extra={t('vouchers.fields.codeLengthHelp')}
            rules={rules(s.code_length, 'vouchers.fields.codeLength')}
          >
            <InputNumber min={8} max={16} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('vouchers.createNote')}
          </Typography.Paragraph>
        </Form>
      )}
    </Create>
  );
}
