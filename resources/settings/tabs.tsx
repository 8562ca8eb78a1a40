import { useMemo } from 'react';
import {
  Button,
  Checkbox,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { directionOf, LANGUAGES } from '../../contract/languages';
import { timeZoneNames } from '../../contract/time-zone';
import { useCustomMutation } from '@refinedev/core';
import { autopayRetryDaysSchema } from '../../contract/schemas/autopay';
import { POLICY_TYPES, settingsUpdateSchema, testEmailSchema, type PolicyType } from '../../contract/schemas/settings';
import { zodRules } from '../../src/components/resource';
import { t, translateMessage } from '../../src/i18n';
import { EditingLanguagePicker, useEditingLanguage } from './ContentLanguage';
import { ListEditor } from './ListEditor';
import { LogoUpload } from './LogoUpload';
import { parseRetryDays, percentToBp } from './values';

const shape = settingsUpdateSchema.shape;
const company = shape.company.unwrap().shape;
const billing = shape.billing.unwrap().shape;
const smtp = shape.smtp.unwrap().shape;
const uploads = shape.uploads.unwrap().shape;
const policyText = shape.policies.unwrap().shape['privacy-policy'];
const rules = (schema: Parameters<typeof zodRules>[0], labelKey: string) => zodRules(schema, { labelKey });

export function CompanyTab() {
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item
          name={['company', 'name']}
          label={t('settings.company.name')}
          rules={[
            { required: true, message: t('resource.required', { field: t('settings.company.name') }) },
            ...rules(company.name.unwrap(), 'settings.company.name'),
          ]}
        >
          <Input />
        </Form.Item>
        <Form.Item name={['company', 'address']} label={t('settings.company.address')}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item
          name={['company', 'support_email']}
          label={t('settings.company.supportEmail')}
          rules={rules(company.support_email.unwrap(), 'settings.company.supportEmail')}
        >
          <Input />
        </Form.Item>
        <Form.Item name={['company', 'support_phone']} label={t('settings.company.supportPhone')}>
          <Input />
        </Form.Item>
        <Form.Item name={['company', 'logo_url']} hidden>
          <Input />
        </Form.Item>
        <LogoUpload />
      </Col>
      <Col xs={24} md={12}>
        {(['facebook', 'twitter', 'instagram', 'linkedin'] as const).map((s) => (
          <Form.Item
            key={s}
            name={['company', 'social', s]}
            label={t(`settings.company.${s}`)}
            rules={rules(company.social.unwrap().shape[s], `settings.company.${s}`)}
          >
            <Input placeholder="https://" />
          </Form.Item>
        ))}
      </Col>
    </Row>
  );
}

export function BillingTab() {
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item
          name="currency"
          label={t('settings.billing.currency')}
          rules={rules(shape.currency.unwrap(), 'settings.billing.currency')}
        >
          <Input maxLength={3} />
        </Form.Item>
        <Form.Item
          name="tax_rate_percent"
          label={t('settings.billing.taxRate')}
          rules={[
            {
              validator: async (_r, v: unknown) => {
                const bp = percentToBp(String(v ?? ''));
                if (bp === null || bp < 0 || bp > 10000) throw new Error(t('settings.billing.taxRateInvalid'));
              },
            },
          ]}
        >
          <Input inputMode="decimal" suffix="%" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name={['billing', 'invoice_prefix']} label={t('settings.billing.invoicePrefix')}>
          <Input />
        </Form.Item>
        <Form.Item
          name={['billing', 'invoice_next_number']}
          label={t('settings.billing.nextNumber')}
          rules={rules(billing.invoice_next_number.unwrap(), 'settings.billing.nextNumber')}
        >
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name={['billing', 'grace_days']}
          label={t('settings.billing.graceDays')}
          rules={rules(billing.grace_days.unwrap(), 'settings.billing.graceDays')}
        >
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name={['billing', 'renewal_days_before']}
          label={t('settings.billing.renewalDaysBefore')}
          extra={t('settings.billing.renewalDaysBeforeHelp')}
          rules={rules(billing.renewal_days_before.unwrap(), 'settings.billing.renewalDaysBefore')}
        >
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
        {/* Kept as the API's array of days; typed as "1, 3, 5" (anything not a number is kept as text and refused). */}
        <Form.Item
          name={['billing', 'autopay_retry_days']}
          label={t('settings.billing.autopayRetryDays')}
          extra={t('settings.billing.autopayRetryDaysHelp')}
          getValueProps={(v: unknown) => ({ value: Array.isArray(v) ? v.join(', ') : (v ?? '') })}
          normalize={(text: string) => parseRetryDays(text) ?? text}
          rules={[
            {
              validator: async (_r, v: unknown) => {
                if (v === undefined) return; // not sent by an older server: nothing to check, nothing changes
                const parsed = autopayRetryDaysSchema.safeParse(v);
                if (!parsed.success)
                  throw new Error(
                    typeof v === 'string'
                      ? t('settings.billing.autopayRetryDaysInvalid')
                      : translateMessage(parsed.error.issues[0].message),
                  );
              },
            },
          ]}
        >
          <Input inputMode="numeric" placeholder="1, 3, 5" />
        </Form.Item>
      </Col>
    </Row>
  );
}

export function EmailTab({ passwordSet }: { passwordSet: boolean }) {
  const form = Form.useFormInstance();
  const test = useCustomMutation();
  const sendTest = async () => {
    const { to } = await form
      .validateFields([['test_to']])
      .then(() => ({ to: form.getFieldValue('test_to') as string | undefined }));
    if (!to) return;
    test.mutate({
      url: '/settings/test-email',
      method: 'post',
      values: { to },
      meta: { fallbackMessage: t('settings.smtp.testFailed') },
      successNotification: () => ({ type: 'success', message: t('settings.smtp.testSent') }),
    });
  };
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item name={['smtp', 'host']} label={t('settings.smtp.host')}>
          <Input />
        </Form.Item>
        <Form.Item
          name={['smtp', 'port']}
          label={t('settings.smtp.port')}
          rules={rules(smtp.port.unwrap(), 'settings.smtp.port')}
        >
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name={['smtp', 'secure']} label={t('settings.smtp.secure')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name={['smtp', 'user']} label={t('settings.smtp.user')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name={['smtp', 'from']} label={t('settings.smtp.from')}>
          <Input />
        </Form.Item>
        <Form.Item
          name={['smtp', 'password']}
          extra={t('settings.smtp.passwordHint')}
          label={
            <Space>
              {t('settings.smtp.password')}
              <Tag color={passwordSet ? 'green' : 'default'} data-testid="smtp-password-state">
                {t(passwordSet ? 'settings.smtp.passwordSet' : 'settings.smtp.passwordNotSet')}
              </Tag>
            </Space>
          }
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="test_to"
          label={t('settings.smtp.testTo')}
          rules={rules(testEmailSchema.shape.to.optional(), 'settings.smtp.testTo')}
        >
          <Input type="email" />
        </Form.Item>
        <Button onClick={() => void sendTest().catch(() => undefined)} loading={test.mutation.isPending}>
          {t('settings.smtp.sendTest')}
        </Button>
      </Col>
    </Row>
  );
}

export function PoliciesTab() {
  const languages = useEditingLanguage();
  const { base, baseName, others, editing } = languages;
  const form = Form.useFormInstance();
  const policies = Form.useWatch('policies', { form, preserve: true }) as Record<PolicyType, string> | undefined;
  return (
    <>
      <EditingLanguagePicker {...languages} />
      {/* Every language's fields stay in the form (one Save sends them all); only the picked one is shown. */}
      <div hidden={editing !== base}>
        {POLICY_TYPES.map((p) => (
          <Form.Item key={p} name={['policies', p]} label={t(`settings.policies.${p}`)}>
            <Input.TextArea rows={10} style={{ fontFamily: 'monospace' }} />
          </Form.Item>
        ))}
      </div>
      {others.map((code) => (
        <div key={code} hidden={editing !== code}>
          <Typography.Paragraph type="secondary">
            {t('settings.content.fallbackHint', { language: baseName })}
          </Typography.Paragraph>
          {POLICY_TYPES.map((p) => (
            <Form.Item
              key={p}
              name={['content_translations', code, 'policies', p]}
              label={t(`settings.policies.${p}`)}
              rules={rules(policyText, `settings.policies.${p}`)}
            >
              <Input.TextArea
                rows={10}
                style={{ fontFamily: 'monospace' }}
                placeholder={policies?.[p]}
                lang={code}
                dir={directionOf(code)}
              />
            </Form.Item>
          ))}
        </div>
      ))}
      {/* Upload quotas (issue 32): what tickets, installations and each customer per day may hold. */}
      <Row gutter={16}>
        {(['ticket_mb', 'installation_mb', 'customer_daily_mb'] as const).map((k) => (
          <Col xs={24} md={8} key={k}>
            <Form.Item
              name={['uploads', k]}
              label={t(`settings.uploads.${k}`)}
              rules={rules(uploads[k], `settings.uploads.${k}`)}
            >
              <InputNumber style={{ width: '100%' }} addonAfter="MB" />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </>
  );
}

const ACHIEVEMENT_COLUMNS = [
  { name: 'label', labelKey: 'settings.content.label', required: true },
  { name: 'value', labelKey: 'settings.content.value', required: true },
];
const FAQ_COLUMNS = [
  { name: 'question', labelKey: 'settings.content.question', required: true },
  { name: 'answer', labelKey: 'settings.content.answer', textarea: true, required: true },
];

export function ContentTab() {
  const languages = useEditingLanguage();
  const { base, baseName, others, editing } = languages;
  const form = Form.useFormInstance();
  const achievements = Form.useWatch('achievements', { form, preserve: true }) as
    | Array<Record<string, string>>
    | undefined;
  const faq = Form.useWatch('faq', { form, preserve: true }) as Array<Record<string, string>> | undefined;
  const about = Form.useWatch('about', { form, preserve: true }) as string | undefined;
  const hint = t('settings.content.fallbackHint', { language: baseName });
  const copyLabel = t('settings.content.copyDefault', { language: baseName });
  return (
    <>
      <EditingLanguagePicker {...languages} />
      {/* Every language's fields stay in the form (one Save sends them all); only the picked one is shown. */}
      <div hidden={editing !== base}>
        <ListEditor name="achievements" titleKey="settings.content.achievements" columns={ACHIEVEMENT_COLUMNS} />
        <ListEditor name="faq" titleKey="settings.content.faq" columns={FAQ_COLUMNS} />
        <Form.Item
          name="about"
          label={t('settings.content.about')}
          extra={t('settings.content.aboutHelp')}
          rules={rules(shape.about, 'settings.content.about')}
        >
          <Input.TextArea rows={4} />
        </Form.Item>
      </div>
      {others.map((code) => (
        <div key={code} hidden={editing !== code}>
          <ListEditor
            name={['content_translations', code, 'achievements']}
            titleKey="settings.content.achievements"
            columns={ACHIEVEMENT_COLUMNS}
            fallback={achievements}
            hint={hint}
            copyLabel={copyLabel}
            lang={code}
          />
          <ListEditor
            name={['content_translations', code, 'faq']}
            titleKey="settings.content.faq"
            columns={FAQ_COLUMNS}
            fallback={faq}
            hint={hint}
            copyLabel={copyLabel}
            lang={code}
          />
          <Form.Item
            name={['content_translations', code, 'about']}
            label={t('settings.content.about')}
            extra={hint}
            rules={rules(shape.about, 'settings.content.about')}
          >
            <Input.TextArea rows={4} placeholder={about} lang={code} dir={directionOf(code)} />
          </Form.Item>
        </div>
      ))}
      {/* Place names and postcodes: the same in every language. */}
      <ListEditor
        name="coverage_areas"
        titleKey="settings.content.coverage"
        columns={[
          { name: 'name', labelKey: 'settings.content.areaName', required: true },
          { name: 'postcode', labelKey: 'settings.content.postcode' },
          { name: 'note', labelKey: 'settings.content.note' },
        ]}
      />
    </>
  );
}

/**
 * The languages customers are offered (the switchers list these; a visitor's browser language outside them gets the
 * default) and the default one (issue 37). Each language is named in itself.
 */
export function LanguagesTab() {
  const options = LANGUAGES.map((l) => ({ value: l.code, label: <span lang={l.code}>{l.name}</span> }));
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item
          name={['languages', 'offered']}
          label={t('settings.languages.offered')}
          extra={t('settings.languages.offeredHelp')}
          rules={[{ type: 'array', min: 1, message: t('settings.languages.offeredRequired') }]}
        >
          <Checkbox.Group options={options} style={{ display: 'flex', flexDirection: 'column', gap: 8 }} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name={['languages', 'default']}
          label={t('settings.languages.default')}
          extra={t('settings.languages.defaultHelp')}
          dependencies={[['languages', 'offered']]}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, value: string) =>
                (getFieldValue(['languages', 'offered']) ?? []).includes(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('settings.languages.defaultNotOffered'))),
            }),
          ]}
        >
          <Radio.Group options={options} style={{ display: 'flex', flexDirection: 'column', gap: 8 }} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <TimeZoneField />
      </Col>
    </Row>
  );
}

/**
 * The ISP's time zone (issue 37), searchable among the zones the browser's Intl knows; '' is none (each reader's
 * browser's own on screen, UTC in e-mails and PDFs). A stored zone missing from the list is offered as it is.
 */
function TimeZoneField() {
  const form = Form.useFormInstance();
  const stored = Form.useWatch('time_zone', { form, preserve: true }) as unknown;
  const names = useMemo(() => timeZoneNames(), []);
  const options = [
    { value: '', label: t('settings.timeZone.browser') },
    ...(typeof stored === 'string' && stored && !names.includes(stored) ? [stored] : []).map(zoneOption),
    ...names.map(zoneOption),
  ];
  return (
    <Form.Item name="time_zone" label={t('settings.timeZone.label')} extra={t('settings.timeZone.help')}>
      <Select showSearch optionFilterProp="label" options={options} />
    </Form.Item>
  );
}

/** America/Mexico_City, found by "mexico city" too. */
const zoneOption = (zone: string) => ({ value: zone, label: zone.replaceAll('_', ' ') });
