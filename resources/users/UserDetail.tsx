import { useState } from 'react';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Spin,
  Table,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCustom, useList, useOne, type BaseRecord } from '@refinedev/core';
import type { Role } from '../../contract/roles';
import {
  USER_STATUSES,
  canDeleteRole,
  canManageRole,
  canResetPasswordOf,
  userPasswordBodySchema,
  type ManagedUser,
  type UserStatus,
} from '../../contract/schemas/user';
import { renderField, zodRules } from '../../src/components/resource';
import { useAllowed } from '../../src/components/resource/useAllowed';
import { t } from '../../src/i18n';
import { invoicesResource } from '../invoices/resource';
import { subscriptionsResource } from '../subscriptions/resource';
import { userUrl, useUserCall } from './api';
import { usersResource as decl } from './resource';
import { UserFormModal } from './UserForm';
import { UsageView } from '../usage/UsageView';
import { AuditHistory } from '../audit/AuditHistory';
import { CreditPanel } from '../credit/CreditPanel';
import { CustomerMessages } from '../messages/CustomerMessages';
import { SectionHeading } from '../../src/components/Text';
import { usePageTitle } from '../../src/components/page-title';

const field = (fields: typeof decl.fields, name: string) => fields.find((f) => f.name === name)!;
const columnsOf = (fields: typeof decl.fields, names: string[]) =>
  names.map((name) => {
    const f = field(fields, name);
    return {
      key: name,
      dataIndex: name,
      title: t(f.labelKey),
      render: (v: unknown, r: BaseRecord) => renderField(f, v, r),
    };
  });

/** The user's detail in a drawer (the /dashboard/user/{id} route of the users screen). */
export function UserDrawer({
  id,
  actor,
  actorId,
  onClose,
}: {
  id: string;
  actor: Role | null;
  actorId?: string;
  onClose: () => void;
}) {
  const { result, query } = useOne<ManagedUser>({ resource: 'users', id, queryOptions: { enabled: !!id } });
  const user = result as ManagedUser | undefined;
  const title = user ? `${user.name} · ${user.customer_number}` : t('users.singular');
  // The route names the person it opens: a tab and a history entry per customer, not "Users" for all of them.
  usePageTitle(user ? `${user.name} (${user.customer_number})` : null);
  return (
    <Drawer
      open
      width={720}
      onClose={onClose}
      title={title}
      destroyOnHidden
      data-testid="user-drawer"
      styles={{ body: { padding: 0, overflow: 'hidden', display: 'flex', flexDirection: 'column' } }}
    >
      {/* The scrolling part takes the focus itself, so a reader without the edit buttons (support) can still
          scroll it by keyboard (axe scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must take focus to be scrolled by keyboard (axe scrollable-region-focusable), see above */}
      <section tabIndex={0} aria-label={title} style={{ flex: 1, minHeight: 0, overflow: 'auto', padding: 24 }}>
        {query.isLoading ? (
          <Spin style={{ display: 'block', margin: '48px auto' }} />
        ) : !user ? (
          <Alert type="error" showIcon message={t('errors.users.one')} />
        ) : (
          <UserDetail user={user} actor={actor} actorId={actorId} onDeleted={onClose} />
        )}
      </section>
    </Drawer>
  );
}

function UserDetail({
  user,
  actor,
  actorId,
  onDeleted,
}: {
  user: ManagedUser;
  actor: Role | null;
  actorId?: string;
  onDeleted: () => void;
}) {
  const record = user as unknown as BaseRecord;
  const mayViewCredit = useAllowed('users', 'view-credit');
  const mayAdjustCredit = useAllowed('users', 'adjust-credit');
  const mayReadMessages = useAllowed('messages', 'view-log');
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <UserActions user={user} actor={actor} actorId={actorId} onDeleted={onDeleted} />
      <section>
        <SectionHeading style={{ marginBottom: 8 }}>{t('users.detail.profile')}</SectionHeading>
        <Descriptions column={1} size="small" bordered>
          {decl.fields.map((f) => (
            <Descriptions.Item key={f.name} label={t(f.labelKey)}>
              {renderField(f, record[f.name], record)}
            </Descriptions.Item>
          ))}
        </Descriptions>
      </section>
      <UserSubscriptions userId={user.id} />
      <UserInvoices userId={user.id} />
      {user.role === 'user' && mayViewCredit && (
        <CreditPanel userId={user.id} canAdjust={mayAdjustCredit} title={t('credit.balance')} />
      )}
      <UserTickets user={user} />
      {user.role === 'user' && mayReadMessages && <CustomerMessages userId={user.id} />}
      {user.role === 'user' && (
        <section data-testid="user-usage">
          <SectionHeading style={{ marginBottom: 8 }}>{t('usage.tab')}</SectionHeading>
          <UsageView userId={user.id} />
        </section>
      )}
      <AuditHistory targetType="user" targetId={user.id} />
    </Space>
  );
}

/**
 * Edit, status, password and delete: offered only when the role matrix lets the caller's role call the action's
 * endpoint (contract/resource-access.ts, through useCan) and the contract's rules let it act on this user's role.
 */
function UserActions({
  user,
  actor,
  actorId,
  onDeleted,
}: {
  user: ManagedUser;
  actor: Role | null;
  actorId?: string;
  onDeleted: () => void;
}) {
  const [dialog, setDialog] = useState<'edit' | 'password' | null>(null);
  const { run } = useUserCall();
  const self = user.id === actorId;
  const may = {
    edit: useAllowed('users', 'edit'),
    status: useAllowed('users', 'change-status'),
    password: useAllowed('users', 'reset-password'),
    delete: useAllowed('users', 'delete'),
  };
  const manage = !!actor && canManageRole(actor, user.role);
  const others = USER_STATUSES.filter((s) => s !== user.status);

  const setStatus = (status: UserStatus) =>
    run({
      url: `${userUrl(user.id)}/status`,
      method: 'patch',
      values: { status },
      success: t(`users.toast.${status}`),
      fallbackKey: 'errors.users.status',
    });
  const remove = async () => {
    const done = await run({
      url: userUrl(user.id),
      method: 'delete',
      success: t('users.toast.deleted'),
      fallbackKey: 'errors.users.delete',
    });
    if (done !== undefined) onDeleted();
  };

  return (
    <>
      <Space wrap>
        {may.edit && (manage || self) && <Button onClick={() => setDialog('edit')}>{t('users.actions.edit')}</Button>}
        {may.status &&
          manage &&
          !self &&
          others.map((status) => (
            <Popconfirm
              key={status}
              title={t(status === 'active' ? 'users.status.confirm' : 'users.status.confirmInactive', {
                name: user.name,
                status: t(`users.status.${status}`).toLowerCase(),
              })}
              okText={t('users.actions.setStatus', { status: t(`users.status.${status}`).toLowerCase() })}
              okButtonProps={{ danger: status !== 'active' }}
              cancelText={t('resource.cancel')}
              onConfirm={() => setStatus(status)}
            >
              <Button danger={status !== 'active'}>
                {t('users.actions.setStatus', { status: t(`users.status.${status}`).toLowerCase() })}
              </Button>
            </Popconfirm>
          ))}
        {may.password && actor && canResetPasswordOf(actor, user.role) && !self && (
          <Button onClick={() => setDialog('password')}>{t('users.actions.resetPassword')}</Button>
        )}
        {may.delete && actor && canDeleteRole(actor, user.role) && !self && (
          <Popconfirm
            title={t('users.delete.confirm', { name: user.name })}
            okText={t('users.actions.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('resource.cancel')}
            onConfirm={remove}
          >
            <Button danger type="primary">
              {t('users.actions.delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      {dialog === 'edit' && (
        <UserFormModal actor={actor} actorId={actorId} user={user} onClose={() => setDialog(null)} />
      )}
      {dialog === 'password' && <PasswordDialog user={user} onClose={() => setDialog(null)} />}
    </>
  );
}

function PasswordDialog({ user, onClose }: { user: ManagedUser; onClose: () => void }) {
  const [form] = Form.useForm<{ newPassword?: string }>();
  const { run, isPending } = useUserCall();
  const submit = async ({ newPassword }: { newPassword?: string }) => {
    const done = await run({
      url: `${userUrl(user.id)}/password`,
      method: 'patch',
      values: { newPassword },
      success: t('users.toast.password'),
      fallbackKey: 'errors.users.password',
    });
    if (done !== undefined) onClose();
  };
  return (
    <Modal
      open
      title={t('users.password.title', { name: user.name })}
      onCancel={onClose}
      okText={t('users.actions.resetPassword')}
      okButtonProps={{ danger: true, loading: isPending }}
      cancelText={t('resource.cancel')}
      onOk={() => form.submit()}
    >
      <Typography.Paragraph type="secondary">{t('users.password.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="newPassword"
          label={t('users.fields.newPassword')}
          rules={zodRules(userPasswordBodySchema.shape.newPassword, { labelKey: 'users.fields.newPassword' })}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Related({
  title,
  loading,
  rows,
  columns,
  empty,
}: {
  title: string;
  loading: boolean;
  rows: BaseRecord[];
  columns: ColumnsType<BaseRecord>;
  empty: string;
}) {
  return (
    <section>
      <SectionHeading style={{ marginBottom: 8 }}>{title}</SectionHeading>
      <Table<BaseRecord>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={rows}
        columns={columns}
        pagination={false}
        locale={{ emptyText: empty }}
      />
    </section>
  );
}

/** GET /subscriptions?user_id= (the newest 10). */
function UserSubscriptions({ userId }: { userId: string }) {
  const { result, query } = useList({
    resource: 'subscriptions',
    filters: [{ field: 'user_id', operator: 'eq', value: userId }],
    pagination: { currentPage: 1, pageSize: 10, mode: 'server' },
  });
  return (
    <Related
      title={t('users.detail.subscriptions')}
      loading={query.isLoading}
      rows={result.data ?? []}
      columns={columnsOf(subscriptionsResource.fields, ['plan_name', 'status', 'current_period_end', 'created_at'])}
      empty={t('users.detail.noSubscriptions')}
    />
  );
}

/** GET /payments/invoices?user_id= (the newest 10). */
function UserInvoices({ userId }: { userId: string }) {
  const { result, query } = useList({
    resource: 'invoices',
    filters: [{ field: 'user_id', operator: 'eq', value: userId }],
    pagination: { currentPage: 1, pageSize: 10, mode: 'server' },
  });
  return (
    <Related
      title={t('users.detail.invoices')}
      loading={query.isLoading}
      rows={result.data ?? []}
      columns={columnsOf(invoicesResource.fields, ['number', 'total_amount', 'status', 'issue_date'])}
      empty={t('users.detail.noInvoices')}
    />
  );
}

/**
 * The tickets this user opened. GET /tickets has no creator filter; its search matches the creator's e-mail,
 * so the screen searches by e-mail and keeps the tickets whose creator is this user (up to 100).
 */
function UserTickets({ user }: { user: ManagedUser }) {
  const { result, query } = useCustom<{ items: BaseRecord[] }>({
    url: '/tickets',
    method: 'get',
    config: { query: { search: user.email, limit: 100 } },
    meta: { fallbackMessage: t('errors.tickets.list') },
    errorNotification: false,
  });
  const items = ((result.data as { items?: BaseRecord[] } | undefined)?.items ?? []).filter(
    (tk) => tk.created_by === user.id,
  );
  const columns = [
    { key: 'number', dataIndex: 'number', title: t('users.detail.ticketNumber') },
    { key: 'subject', dataIndex: 'subject', title: t('users.detail.ticketSubject') },
    { key: 'status', dataIndex: 'status', title: t('users.fields.status') },
    {
      key: 'created_at',
      dataIndex: 'created_at',
      title: t('users.fields.createdAt'),
      render: (v: unknown, r: BaseRecord) => renderField(field(decl.fields, 'created_at'), v, r),
    },
  ];
  return (
    <Related
      title={t('users.detail.tickets')}
      loading={query.isLoading}
      rows={items}
      columns={columns}
      empty={t('users.detail.noTickets')}
    />
  );
}
