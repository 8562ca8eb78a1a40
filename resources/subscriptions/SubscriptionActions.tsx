import { useState } from 'react';
import { Alert, Button, Checkbox, Flex, Form, Input, Modal, Popconfirm, Spin, Typography } from 'antd';
import { FormSelect } from '../../src/components/FormSelect';
import { isRole, type Role } from '../../contract/roles';
import {
  subscriptionCancelInputSchema,
  subscriptionStatusInputSchema,
  type Subscription,
  type SubscriptionStatus,
} from '../../contract/schemas/subscription';
import { useAuthState } from '../../providers/auth-store';
import { zodRules } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { useActivePlans, useSubscriptionCall } from './hooks';
import { useAllowed } from '../../src/components/resource/useAllowed';
import { actionsFor, canCancelImmediately, nextStaffStatuses, type SubscriptionAction } from './lifecycle';
import { PlanChoices } from './ui';

/** The signed-in user's role (null while unknown). */
export function useRole(): Role | null {
  const role = useAuthState((s) => s.user?.role);
  return isRole(role) ? role : null;
}

const base = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;

type Dialog = 'upgrade' | 'cancel' | 'status' | null;

/**
 * Every confirmation names the line it acts on (issue 34): "Cancel your Home 100 subscription?" for the owner,
 * "Cancel Ada Customer's Home 100 subscription?" for staff, so a list of lines never leaves a doubt which one.
 */
export function named(key: string, subscription: Pick<Subscription, 'plan_name' | 'user_name'>, own: boolean): string {
  return own || !subscription.user_name
    ? t(`${key}Own`, { plan: subscription.plan_name })
    : t(`${key}Staff`, { plan: subscription.plan_name, customer: subscription.user_name });
}

/**
 * What may be done with one subscription, by its status and the caller's role: change plan, renew, cancel
 * (owner and staff); change status and delete (only the roles the role matrix lets call those endpoints).
 */
export function SubscriptionActions({
  subscription,
  onDeleted,
  size = 'middle',
  block = false,
}: {
  subscription: Subscription;
  onDeleted?: () => void;
  size?: 'small' | 'middle';
  block?: boolean;
}) {
  const role = useRole();
  const own = useAuthState((s) => s.user?.id) === subscription.user_id;
  const [dialog, setDialog] = useState<Dialog>(null);
  const { run, isPending } = useSubscriptionCall();
  // A data line (issue 31) is topped up with a voucher: the server refuses to renew it or change its plan.
  // Each button only for a role the role matrix lets call its endpoint (contract/resource-access.ts, issue 35).
  const allowed: Record<SubscriptionAction | 'change-status' | 'delete', boolean> = {
    upgrade: useAllowed('subscriptions', 'upgrade'),
    renew: useAllowed('subscriptions', 'renew'),
    cancel: useAllowed('subscriptions', 'cancel'),
    'change-status': useAllowed('subscriptions', 'change-status'),
    delete: useAllowed('subscriptions', 'delete'),
  };
  const actions = actionsFor(subscription.status).filter(
    (a) => allowed[a] && (subscription.data_allowance_bytes == null || a === 'cancel'),
  );
  const statuses = allowed['change-status'] ? nextStaffStatuses(subscription.status) : [];

  const renew = () =>
    run({
      url: `${base(subscription.id)}/renew`,
      method: 'patch',
      success: t('subscriptions.toast.renewed'),
      fallbackKey: 'errors.subscriptions.renew',
    });

  const remove = async () => {
    const done = await run({
      url: base(subscription.id),
      method: 'delete',
      success: t('subscriptions.toast.deleted'),
      fallbackKey: 'errors.subscriptions.delete',
    });
    if (done !== undefined) onDeleted?.();
  };

  return (
    <>
      {/* On a phone (block) the buttons stack full width, each within the card. */}
      <Flex wrap vertical={block} gap={8}>
        {actions.includes('upgrade') && (
          <Button size={size} block={block} onClick={() => setDialog('upgrade')}>
            {t('subscriptions.actions.upgrade')}
          </Button>
        )}
        {actions.includes('renew') && (
          <Popconfirm
            title={named('subscriptions.renew.confirm', subscription, own)}
            okText={t('subscriptions.actions.renew')}
            cancelText={t('resource.cancel')}
            onConfirm={renew}
          >
            <Button size={size} block={block} loading={isPending && dialog === null}>
              {t('subscriptions.actions.renew')}
            </Button>
          </Popconfirm>
        )}
        {statuses.length > 0 && (
          <Button size={size} block={block} onClick={() => setDialog('status')}>
            {t('subscriptions.actions.changeStatus')}
          </Button>
        )}
        {actions.includes('cancel') && (
          <Button size={size} block={block} danger onClick={() => setDialog('cancel')}>
            {t('subscriptions.actions.cancel')}
          </Button>
        )}
        {allowed.delete && (
          <Popconfirm
            title={named('subscriptions.delete.confirm', subscription, own)}
            okText={t('subscriptions.actions.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('resource.cancel')}
            onConfirm={remove}
          >
            <Button size={size} block={block} danger type="primary">
              {t('subscriptions.actions.delete')}
            </Button>
          </Popconfirm>
        )}
      </Flex>
      {dialog === 'upgrade' && <UpgradeDialog subscription={subscription} own={own} onClose={() => setDialog(null)} />}
      {dialog === 'cancel' && (
        <CancelDialog
          subscription={subscription}
          own={own}
          immediateAllowed={canCancelImmediately(role)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'status' && (
        <StatusDialog subscription={subscription} statuses={statuses} onClose={() => setDialog(null)} />
      )}
    </>
  );
}

function UpgradeDialog({
  subscription,
  own,
  onClose,
}: {
  subscription: Subscription;
  own: boolean;
  onClose: () => void;
}) {
  const { plans, isLoading } = useActivePlans();
  const { run, isPending } = useSubscriptionCall();
  const [form] = Form.useForm<{ plan_id?: string }>();
  const planId = Form.useWatch('plan_id', form);
  const others = plans.filter((p) => p.id !== subscription.plan_id);

  const submit = async ({ plan_id }: { plan_id?: string }) => {
    const done = await run({
      url: `${base(subscription.id)}/upgrade`,
      method: 'patch',
      values: { plan_id },
      success: t('subscriptions.toast.upgraded'),
      fallbackKey: 'errors.subscriptions.upgrade',
    });
    if (done !== undefined) onClose();
  };

  return (
    <Modal
      open
      title={named('subscriptions.upgrade.title', subscription, own)}
      onCancel={onClose}
      width={760}
      okText={t('subscriptions.upgrade.submit')}
      cancelText={t('resource.cancel')}
      okButtonProps={{ loading: isPending, disabled: !planId }}
      onOk={() => form.submit()}
    >
      {isLoading ? (
        <Spin style={{ display: 'block', margin: '32px auto' }} />
      ) : others.length === 0 ? (
        <Alert type="info" showIcon message={t('subscriptions.upgrade.noOther')} />
      ) : (
        <Form form={form} layout="vertical" onFinish={submit}>
          <Typography.Paragraph type="secondary">{t('subscriptions.upgrade.hint')}</Typography.Paragraph>
          <Form.Item
            name="plan_id"
            rules={[{ required: true, message: t('resource.required', { field: t('subscriptions.fields.plan') }) }]}
          >
            <PlanChoices plans={plans} disabledId={subscription.plan_id} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

function CancelDialog({
  subscription,
  own,
  immediateAllowed,
  onClose,
}: {
  subscription: Subscription;
  own: boolean;
  immediateAllowed: boolean;
  onClose: () => void;
}) {
  const { run, isPending } = useSubscriptionCall();
  const [form] = Form.useForm<{ reason?: string; immediate?: boolean }>();

  const submit = async ({ reason, immediate }: { reason?: string; immediate?: boolean }) => {
    const done = await run({
      url: `${base(subscription.id)}/cancel`,
      method: 'post',
      values: { suspension_reason: reason?.trim() || null, immediate: immediateAllowed && !!immediate },
      success: t('subscriptions.toast.cancelled'),
      fallbackKey: 'errors.subscriptions.cancel',
    });
    if (done !== undefined) onClose();
  };

  return (
    <Modal
      open
      title={named('subscriptions.cancel.title', subscription, own)}
      onCancel={onClose}
      okText={t('subscriptions.cancel.submit')}
      okButtonProps={{ danger: true, loading: isPending }}
      cancelText={t('subscriptions.cancel.keep')}
      onOk={() => form.submit()}
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ immediate: false }}>
        {!immediateAllowed && <Typography.Paragraph>{t('subscriptions.cancel.atPeriodEnd')}</Typography.Paragraph>}
        <Form.Item
          name="reason"
          label={t('subscriptions.cancel.reason')}
          rules={zodRules(subscriptionCancelInputSchema.shape.suspension_reason, {
            labelKey: 'subscriptions.cancel.reason',
          })}
        >
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
        {immediateAllowed && (
          <Form.Item name="immediate" valuePropName="checked">
            <Checkbox>{t('subscriptions.cancel.immediate')}</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

function StatusDialog({
  subscription,
  statuses,
  onClose,
}: {
  subscription: Subscription;
  statuses: readonly SubscriptionStatus[];
  onClose: () => void;
}) {
  const { run, isPending } = useSubscriptionCall();
  const [form] = Form.useForm<{ status?: SubscriptionStatus; suspension_reason?: string }>();
  const status = Form.useWatch('status', form);

  const submit = async (values: { status?: SubscriptionStatus; suspension_reason?: string }) => {
    if (!values.status) return;
    const done = await run({
      url: `${base(subscription.id)}/status`,
      method: 'patch',
      values: {
        status: values.status,
        suspension_reason: values.status === 'suspended' ? values.suspension_reason?.trim() || null : null,
      },
      success: t('subscriptions.toast.status', { status: values.status }),
      fallbackKey: 'errors.subscriptions.status',
    });
    if (done !== undefined) onClose();
  };

  return (
    <Modal
      open
      title={t('subscriptions.status.title')}
      onCancel={onClose}
      okText={t('subscriptions.status.submit')}
      cancelText={t('resource.cancel')}
      okButtonProps={{ loading: isPending }}
      onOk={() => form.submit()}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="status"
          label={t('subscriptions.status.next')}
          rules={[{ required: true, message: t('resource.required', { field: t('subscriptions.status.next') }) }]}
        >
          <FormSelect
            aria-label={t('subscriptions.status.next')}
            options={statuses.map((s) => ({ value: s, label: t(`subscriptions.status.${s}`) }))}
          />
        </Form.Item>
        {status === 'suspended' && (
          <Form.Item
            name="suspension_reason"
            label={t('subscriptions.status.reason')}
            rules={[
              { required: true, whitespace: true, message: t('subscriptions.status.reasonRequired') },
              ...zodRules(subscriptionStatusInputSchema.shape.suspension_reason, {
                labelKey: 'subscriptions.status.reason',
              }).slice(1),
            ]}
          >
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
