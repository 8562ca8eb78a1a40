import { Button, Card, Collapse, Form, Spin, Tabs } from 'antd';
import { useCustom, useCustomMutation } from '@refinedev/core';
import type { AdminSettings } from '../../contract/schemas/settings';
import { t } from '../../src/i18n';
import { EditingLanguageProvider, translationLanguageOf, useSetEditingLanguage } from './ContentLanguage';
import { DunningTab } from './DunningTab';
import { BillingTab, CompanyTab, ContentTab, EmailTab, PoliciesTab, LanguagesTab } from './tabs';
import { toFormValues, toSettingsPayload, type SettingsFormValues } from './values';
import { useViewport } from '../../src/components/resource';
import { HeaderTitle } from '../../src/components/Text';

/** /dashboard/settings (admin): GET /settings into one form over five tabs, saved with PUT /settings. */
export function SettingsPage() {
  return (
    <EditingLanguageProvider>
      <SettingsForm />
    </EditingLanguageProvider>
  );
}

function SettingsForm() {
  const setEditingLanguage = useSetEditingLanguage();
  const { narrow } = useViewport();
  const { query } = useCustom<AdminSettings>({
    url: '/settings',
    method: 'get',
    meta: { fallbackMessage: t('settings.errors.load') },
  });
  const save = useCustomMutation();
  const [form] = Form.useForm<SettingsFormValues>();
  // result.data is {} until the first answer; the query's data is absent until then.
  const settings = query.data?.data as AdminSettings | undefined;

  if (!settings)
    return (
      <Card title={<HeaderTitle>{t('settings.title')}</HeaderTitle>}>
        <Spin spinning={query.isLoading} />
      </Card>
    );

  const onFinish = (values: SettingsFormValues) =>
    save.mutate(
      {
        url: '/settings',
        method: 'put',
        values: toSettingsPayload(values),
        meta: { fallbackMessage: t('settings.errors.save') },
        successNotification: () => ({ type: 'success', message: t('settings.saved') }),
      },
      {
        onSuccess: () => {
          // A typed password is sent once; the field never shows it back.
          form.setFieldValue(['smtp', 'password'], '');
          void query.refetch();
        },
      },
    );

  const sections = [
    { key: 'company', label: t('settings.tabs.company'), children: <CompanyTab />, forceRender: true },
    { key: 'billing', label: t('settings.tabs.billing'), children: <BillingTab />, forceRender: true },
    // Issue 38; absent when the server predates dunning.
    ...(settings.dunning
      ? [{ key: 'dunning', label: t('settings.tabs.dunning'), children: <DunningTab />, forceRender: true }]
      : []),
    {
      key: 'email',
      label: t('settings.tabs.email'),
      children: <EmailTab passwordSet={settings.smtp.password_set} />,
      forceRender: true,
    },
    { key: 'policies', label: t('settings.tabs.policies'), children: <PoliciesTab />, forceRender: true },
    { key: 'content', label: t('settings.tabs.content'), children: <ContentTab />, forceRender: true },
    { key: 'languages', label: t('settings.tabs.languages'), children: <LanguagesTab />, forceRender: true },
  ];
  return (
    <Card
      title={<HeaderTitle>{t('settings.title')}</HeaderTitle>}
      data-testid="settings-page"
      extra={
        <Button type="primary" onClick={() => form.submit()} loading={save.mutation.isPending}>
          {t('settings.save')}
        </Button>
      }
    >
      <Form<SettingsFormValues>
        form={form}
        layout="vertical"
        initialValues={toFormValues(settings)}
        onFinish={onFinish}
        // A refused field of another language than the one shown: show that language (its message with it).
        onFinishFailed={({ errorFields }) => {
          const code = errorFields[0] ? translationLanguageOf(errorFields[0].name) : null;
          if (code) setEditingLanguage(code);
        }}
      >
        {/* Five tabs do not fit a phone's width (antd would hide some behind a "more" button): there the
            sections fold (antd's accordion mode would call them tabs, which axe refuses), every section's fields rendered either way so one Save sends them all. */}
        {narrow ? <Collapse defaultActiveKey={['company']} items={sections} /> : <Tabs items={sections} />}
      </Form>
    </Card>
  );
}
