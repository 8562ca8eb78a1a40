import { Form, Input, Modal } from 'antd';
import { FormSelect } from '../../src/components/FormSelect';
import type { Role } from '../../contract/roles';
import { assignableRoles, userCreateSchema, type ManagedUser } from '../../contract/schemas/user';
import { zodRules } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { userUrl, useUserCall } from './api';

interface Values {
  name?: string;
  email?: string;
  password?: string;
  role?: Role;
  phone?: string;
  address?: string;
  company?: string;
}

const S = userCreateSchema.shape;
const rules = (schema: Parameters<typeof zodRules>[0], labelKey: string) => zodRules(schema, { labelKey });

/** The role choices offered to the caller for a user: what the server would accept (contract rules). */
export function roleChoices(actor: Role | null, current?: Role): Role[] {
  const allowed = actor ? assignableRoles(actor) : [];
  return current && !allowed.includes(current) ? [current, ...allowed] : allowed;
}

/**
 * Create (POST /users) or edit (PUT /users/{id}) a user in a modal. The role select lists only the roles
 * the caller may give; one's own role is shown but cannot be changed.
 */
export function UserFormModal({
  actor,
  actorId,
  user,
  onClose,
  onSaved,
}: {
  actor: Role | null;
  actorId?: string;
  user?: ManagedUser;
  onClose: () => void;
  onSaved?: (user: ManagedUser) => void;
}) {
  const [form] = Form.useForm<Values>();
  const { run, isPending } = useUserCall();
  const editing = Boolean(user);
  const self = editing && user!.id === actorId;
  const choices = roleChoices(actor, user?.role);
  const roleLocked = self || (editing && !assignableRoles(actor ?? 'user').includes(user!.role)) || choices.length <= 1;

  const submit = async (values: Values) => {
    const body: Record<string, unknown> = {
      name: values.name?.trim(),
      email: values.email?.trim(),
      phone: values.phone?.trim() || null,
      address: values.address?.trim() || null,
      company: values.company?.trim() || null,
    };
    if (!editing) body.password = values.password;
    if (!roleLocked || !editing) body.role = values.role ?? 'user';
    if (editing && (roleLocked || values.role === user!.role)) delete body.role;
    const saved = editing
      ? await run<ManagedUser>({
          url: userUrl(user!.id),
          method: 'put',
          values: body,
          success: t('users.toast.updated'),
          fallbackKey: 'errors.users.update',
        })
      : await run<ManagedUser>({
          url: '/users',
          method: 'post',
          values: body,
          success: t('users.toast.created'),
          fallbackKey: 'errors.users.create',
        });
    if (saved !== undefined) {
      onSaved?.(saved);
      onClose();
    }
  };

  return (
    <Modal
      open
      title={editing ? t('users.edit.title', { name: user!.name }) : t('users.create.title')}
      onCancel={onClose}
      okText={t('users.actions.save')}
      cancelText={t('resource.cancel')}
      okButtonProps={{ loading: isPending }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form
        form={form}
        name={editing ? 'user-edit' : 'user-create'}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          name: user?.name,
          email: user?.email,
          role: user?.role ?? choices[0] ?? 'user',
          phone: user?.phone ?? undefined,
          address: user?.address ?? undefined,
          company: user?.company ?? undefined,
        }}
      >
        <Form.Item name="name" label={t('users.fields.name')} rules={rules(S.name, 'users.fields.name')}>
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('users.fields.email')}
          rules={rules(S.email, 'users.fields.email')}
          // A change waits for the new address to confirm it (issue 32): staff see what is pending.
          extra={user?.pending_email ? t('users.pendingEmail', { email: user.pending_email }) : undefined}
        >
          <Input type="email" maxLength={254} />
        </Form.Item>
        {!editing && (
          <Form.Item
            name="password"
            label={t('users.fields.password')}
            rules={rules(S.password, 'users.fields.password')}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        )}
        <Form.Item name="role" label={t('users.fields.role')}>
          <FormSelect
            aria-label={t('users.fields.role')}
            disabled={roleLocked && editing}
            options={choices.map((r) => ({ value: r, label: t(`role.${r}`) }))}
          />
        </Form.Item>
        <Form.Item name="phone" label={t('users.fields.phone')} rules={rules(S.phone, 'users.fields.phone')}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="company" label={t('users.fields.company')}>
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item name="address" label={t('users.fields.address')}>
          <Input maxLength={300} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
