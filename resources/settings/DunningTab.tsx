import { Col, Form, Input, InputNumber, Radio, Row, Switch, Typography } from 'antd';
import { toMajorString, toMinorUnits } from '../../contract/money';
import { dunningUpdateSchema, LATE_FEE_TYPES } from '../../contract/schemas/settings';
import { zodRules } from '../../src/components/resource';
import { t, translateMessage } from '../../src/i18n';
import { parseDunningSteps, percentToBp } from './values';

const shape = dunningUpdateSchema.shape;
const fee = shape.late_fee.unwrap();

/** "−3, 0, 3, 7" as typed (a minus sign or a hyphen), from the API's steps. */
const stepsText = (v: unknown) =>
  Array.isArray(v) ? v.map((s: { offset_days: number }) => String(s.offset_days)).join(', ') : (v ?? '');

/**
 * The Dunning tab (issue 38): reminders a number of days before/after an invoice's due date and an optional late
 * fee, fixed (typed in the currency, kept in minor units) or a percentage of the invoice (kept in basis points).
 */
export function DunningTab() {
  const currency = Form.useWatch('currency') ?? 'USD';
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Typography.Paragraph type="secondary">{t('settings.dunning.intro')}</Typography.Paragraph>
        <Form.Item name={['dunning', 'enabled']} label={t('settings.dunning.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {/* Kept as the API's steps; typed as "-3, 0, 3, 7" (anything that is not a list of whole days stays text and is refused). */}
        <Form.Item
          name={['dunning', 'steps']}
          label={t('settings.dunning.steps')}
          extra={t('settings.dunning.stepsHelp')}
          getValueProps={(v: unknown) => ({ value: stepsText(v) })}
          normalize={(text: string) => parseDunningSteps(text) ?? text}
          rules={[
            {
              validator: async (_r, v: unknown) => {
                const parsed = shape.steps.unwrap().safeParse(v);
                if (!parsed.success)
                  throw new Error(
                    typeof v === 'string'
                      ? t('settings.dunning.stepsInvalid')
                      : translateMessage(parsed.error.issues[0].message),
                  );
              },
            },
          ]}
        >
          <Input placeholder="-3, 0, 3, 7" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name={['dunning', 'late_fee', 'type']} label={t('settings.dunning.lateFee')}>
          <Radio.Group>
            {LATE_FEE_TYPES.map((type) => (
              <Radio key={type} value={type}>
                {t(`settings.dunning.lateFeeType.${type}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item noStyle dependencies={[['dunning', 'late_fee', 'type']]}>
          {({ getFieldValue }) => {
            const type = getFieldValue(['dunning', 'late_fee', 'type']);
            if (type !== 'fixed' && type !== 'percent') return null;
            return (
              <>
                {type === 'fixed' ? (
                  <Form.Item
                    name={['dunning', 'late_fee', 'amount']}
                    label={t('settings.dunning.amount')}
                    getValueProps={(v: unknown) => ({
                      value: typeof v === 'number' ? toMajorString(v, currency) : (v ?? ''),
                    })}
                    normalize={(text: string) => toMinorUnits(text, currency) ?? text}
                    rules={[
                      {
                        validator: async (_r, v: unknown) => {
                          if (typeof v !== 'number' || v < 1) throw new Error(t('settings.dunning.amountInvalid'));
                          const parsed = fee.shape.amount.safeParse(v);
                          if (!parsed.success) throw new Error(translateMessage(parsed.error.issues[0].message));
                        },
                      },
                    ]}
                  >
                    <Input inputMode="decimal" suffix={currency} />
                  </Form.Item>
                ) : (
                  <Form.Item
                    name={['dunning', 'late_fee', 'percent_bp']}
                    label={t('settings.dunning.percent')}
                    getValueProps={(v: unknown) => ({
                      value: typeof v === 'number' ? toMajorString(v, 'USD') : (v ?? ''),
                    })}
                    normalize={(text: string) => percentToBp(text) ?? text}
                    rules={[
                      {
                        validator: async (_r, v: unknown) => {
                          if (typeof v !== 'number' || v < 1 || v > 10_000)
                            throw new Error(t('settings.dunning.percentInvalid'));
                        },
                      },
                    ]}
                  >
                    <Input inputMode="decimal" suffix="%" />
                  </Form.Item>
                )}
                <Form.Item
                  name={['dunning', 'late_fee', 'after_days']}
                  label={t('settings.dunning.afterDays')}
                  extra={t('settings.dunning.afterDaysHelp')}
                  rules={zodRules(fee.shape.after_days.unwrap(), { labelKey: 'settings.dunning.afterDays' })}
                >
                  <InputNumber style={{ width: '100%' }} />
                </Form.Item>
              </>
            );
          }}
        </Form.Item>
      </Col>
    </Row>
  );
}
