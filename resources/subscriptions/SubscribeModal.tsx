import { Alert, Form, Input, Modal, Spin } from 'antd';
import { useNavigate } from 'react-router';
import { subscriptionInputSchema, type SubscriptionCreated } from '../../contract/schemas/subscription';
import { zodRules } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { useActivePlans, useSubscriptionCall } from './hooks';
import { PlanChoices, invoicePath } from './ui';

const s = subscriptionInputSchema.shape;

/**
 * "Subscribe to a plan": the active plans as cards, then location and note. POST /subscriptions answers the
 * subscription and its first invoice; the customer is taken to that invoice's page to pay it.
 */
export function SubscribeModal({
  open,
  onClose,
  initialPlanId,
}: {
  open: boolean;
  onClose: () => void;
  initialPlanId?: string;
}) {
  const { plans, isLoading } = useActivePlans(open);
  const { run, isPending } = useSubscriptionCall();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ plan_id?: string; location?: string; note?: string }>();
  const planId = Form.useWatch('plan_id', form);
  // A plan installed at the customer's address needs it (the server refuses the order without it: 400).
  const addressRequired = plans.find((p) => p.id === planId)?.requires_installation === true;

  const submit = async (values: { plan_id?: string; location?: string; note?: string }) => {
    const created = await run<SubscriptionCreated>({
      url: '/subscriptions',
      method: 'post',
      values: { plan_id: values.plan_id, location: values.location?.trim() || null, note: values.note?.trim() || null },
      success: t('subscriptions.toast.created'),
      fallbackKey: 'errors.subscriptions.create',
    });
    if (!created) return;
    form.resetFields();
    onClose();
    if (created.invoice?.id) navigate(invoicePath(created.invoice.id));
  };

  return (
    <Modal
      open={open}
      title={t('subscriptions.subscribe.title')}
      onCancel={onClose}
      width={760}
      destroyOnHidden
      okText={t('subscriptions.subscribe.submit')}
      cancelText={t('resource.cancel')}
      okButtonProps={{ loading: isPending, disabled: !planId }}
      onOk={() => form.submit()}
    >
      {isLoading ? (
        <Spin style={{ display: 'block', margin: '32px auto' }} />
      ) : plans.length === 0 ? (
        <Alert type="info" showIcon message={t('subscriptions.subscribe.noPlans')} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={submit}
          preserve={false}
          initialValues={{ plan_id: plans.some((p) => p.id === initialPlanId) ? initialPlanId : undefined }}
        >
          <Form.Item
            name="plan_id"
            label={t('subscriptions.subscribe.choose')}
            rules={[{ required: true, message: t('resource.required', { field: t('subscriptions.fields.plan') }) }]}
          >
            <PlanChoices plans={plans} />
          </Form.Item>
          <Form.Item
            name="location"
            label={t('subscriptions.fields.location')}
            extra={t('subscriptions.subscribe.locationHint')}
            required={addressRequired}
            rules={[
              ...zodRules(s.location, { labelKey: 'subscriptions.fields.location' }),
              ...(addressRequired
                ? [
                    {
                      required: true,
                      whitespace: true,
                      message: t('resource.required', { field: t('subscriptions.fields.location') }),
                    },
                  ]
                : []),
            ]}
          >
            <Input maxLength={300} />
          </Form.Item>
          <Form.Item
            name="note"
            label={t('subscriptions.fields.note')}
            rules={zodRules(s.note, { labelKey: 'subscriptions.fields.note' })}
          >
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
