import '../../i18n/auth-texts';
import { useState } from 'react';
import { Button, Card, Col, Descriptions, Form, Input, Row, Space, Tag } from 'antd';
import { useCustomMutation, useNotification } from '@refinedev/core';
import type { PublicUser } from '../../../contract/schemas/user';
import { setAuthState, useAuthState } from '../../../providers/auth-store';
import { t } from '../../i18n';
import { confirmRules, newPasswordRules, required } from '../auth/rules';
import { formatDate } from '../../components/dates';
import { PageTitle, SectionHeading } from '../../components/Text';
import { MessageSettings } from './MessageSettings';

type ProfileValues = Pick<PublicUser, 'name' | 'email' | 'phone' | 'address' | 'company'>;

export function ProfilePage() {
  const { user } = useAuthState();
  const [editing, setEditing] = useState(false);
  const { open } = useNotification();
  const profile = useCustomMutation<{ user: PublicUser }>();
  const password = useCustomMutation();
  const [passwordForm] = Form.useForm();
  if (!user) return null;

  const saveProfile = (values: ProfileValues) => {
    // A new address is only asked for (issue 32): the account keeps the current one until the link e-mailed to the
    // new one is followed, so it is sent only when it changed.
    const newEmail =
      values.email?.trim() && values.email.trim().toLowerCase() !== user.email.toLowerCase()
        ? values.email.trim()
        : undefined;
    const { email: _email, ...rest } = values;
    profile.mutate(
      {
        url: '/auth/profile',
        method: 'put',
        values: newEmail ? { ...rest, email: newEmail } : rest,
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: (res) => {
          const updated = (res.data as { user?: PublicUser }).user ?? (res.data as unknown as PublicUser);
          setAuthState({ user: updated });
          setEditing(false);
          if (newEmail) open?.({ type: 'success', message: t('profile.emailPending', { email: newEmail }) });
          else open?.({ type: 'success', message: t('profile.updated') });
        },
        onError: (e) => open?.({ type: 'error', message: e.message || t('profile.updateFailed') }),
      },
    );
  };

  const changePassword = (values: { currentPassword: string; newPassword: string }) =>
    password.mutate(
      {
        url: '/auth/change-password',
        method: 'post',
        values: { currentPassword: values.currentPassword, newPassword: values.newPassword },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => {
          passwordForm.resetFields();
          open?.({ type: 'success', message: t('profile.passwordChanged') });
        },
        onError: (e) => open?.({ type: 'error', message: e.message || t('profile.passwordFailed') }),
      },
    );

  return (
    <>
      <PageTitle style={{ marginBottom: 16 }}>{t('menu.profile')}</PageTitle>
      <Row gutter={[16, 16]} data-testid="profile-page">
        <Col xs={24} lg={14}>
          <Card
            title={<SectionHeading>{t('profile.title')}</SectionHeading>}
            extra={!editing && <Button onClick={() => setEditing(true)}>{t('profile.edit')}</Button>}
          >
            {editing ? (
              <Form<ProfileValues> layout="vertical" initialValues={user} onFinish={saveProfile} requiredMark={false}>
                <Form.Item name="name" label={t('auth.fields.name')} rules={[required('auth.fields.name'), { min: 2 }]}>
                  <Input />
                </Form.Item>
                <Form.Item
                  name="email"
                  label={t('auth.fields.email')}
                  extra={t('profile.emailHelp')}
                  rules={[required('auth.fields.email'), { type: 'email', message: t('profile.emailInvalid') }]}
                >
                  <Input type="email" autoComplete="email" />
                </Form.Item>
                <Form.Item name="phone" label={t('auth.fields.phone')}>
                  <Input />
                </Form.Item>
                <Form.Item name="address" label={t('auth.fields.address')}>
                  <Input />
                </Form.Item>
                <Form.Item name="company" label={t('auth.fields.company')}>
                  <Input />
                </Form.Item>
                <Space>
                  <Button type="primary" htmlType="submit" loading={profile.mutation.isPending}>
                    {t('profile.save')}
                  </Button>
                  <Button onClick={() => setEditing(false)}>{t('profile.cancel')}</Button>
                </Space>
              </Form>
            ) : (
              <Descriptions column={1} bordered size="small">
                <Descriptions.Item label={t('auth.fields.name')}>{user.name}</Descriptions.Item>
                <Descriptions.Item label={t('auth.fields.email')}>
                  <Space direction="vertical" size={2}>
                    <span>{user.email}</span>
                    {user.pending_email ? (
                      <Tag color="orange" data-testid="pending-email">
                        {t('profile.emailWaiting', { email: user.pending_email })}
                      </Tag>
                    ) : null}
                  </Space>
                </Descriptions.Item>
                <Descriptions.Item label={t('auth.fields.phone')}>{user.phone ?? '—'}</Descriptions.Item>
                <Descriptions.Item label={t('auth.fields.address')}>{user.address ?? '—'}</Descriptions.Item>
                <Descriptions.Item label={t('auth.fields.company')}>{user.company ?? '—'}</Descriptions.Item>
                <Descriptions.Item label={t('profile.fields.role')}>
                  <Tag color="blue">{t(`role.${user.role}`)}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('profile.fields.verified')}>
                  <Tag color={user.isVerified ? 'green' : 'orange'}>
                    {user.isVerified ? t('profile.yes') : t('profile.no')}
                  </Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('profile.fields.memberSince')}>
                  {formatDate(user.created_at)}
                </Descriptions.Item>
              </Descriptions>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={<SectionHeading>{t('profile.changePassword')}</SectionHeading>}>
            <Form form={passwordForm} layout="vertical" onFinish={changePassword} requiredMark={false}>
              <Form.Item
                name="currentPassword"
                label={t('auth.fields.currentPassword')}
                rules={[required('auth.fields.currentPassword')]}
              >
                <Input.Password autoComplete="current-password" />
              </Form.Item>
              <Form.Item name="newPassword" label={t('auth.fields.newPassword')} rules={newPasswordRules} hasFeedback>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                name="confirmPassword"
                label={t('auth.fields.confirmPassword')}
                dependencies={['newPassword']}
                rules={confirmRules('newPassword')}
                hasFeedback
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={password.mutation.isPending}>
                {t('profile.changePassword')}
              </Button>
            </Form>
          </Card>
        </Col>
        {user.role === 'user' && (
          <Col xs={24}>
            <MessageSettings />
          </Col>
        )}
      </Row>
    </>
  );
}
