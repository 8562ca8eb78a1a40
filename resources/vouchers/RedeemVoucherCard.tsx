import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, Space, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';
import { formatBytes } from '../traffic/format';
import { formatDay } from '../../src/components/dates';

interface Redeemed {
  subscription_id: string;
  extended: boolean;
  period_end: string | null;
  data_allowance_bytes: number | null;
  data_used_bytes: number;
}

/** What a redemption gave, in words: the new end of a time voucher's period, or a data line's data left. */
function redeemedText(done: Redeemed, plan: string): string {
  const date = done.period_end ? formatDay(done.period_end) : '';
  if (done.data_allowance_bytes == null)
    return t(done.extended ? 'vouchers.redeem.extended' : 'vouchers.redeem.started', { plan, date });
  const until = done.period_end ? t('vouchers.redeem.dataUntil', { date }) : '';
  const data = formatBytes(Math.max(0, done.data_allowance_bytes - done.data_used_bytes));
  return t(done.extended ? 'vouchers.redeem.dataExtended' : 'vouchers.redeem.dataStarted', { plan, data, until });
}

/**
 * "Redeem a voucher" on the customer's Subscriptions (POST /vouchers/redeem). The server takes the code as printed
 * (lower case, spaces and dashes are fine) and answers a typo (400), an unknown code (404), a used, revoked or
 * expired one (409) and too many wrong tries (429) with a message of its own, shown here. A printed card's QR
 * code opens this page with ?voucher=CODE: the code is filled in and the card scrolled to.
 */
export function RedeemVoucherCard({ planNameOf }: { planNameOf: (subscriptionId: string) => string | undefined }) {
  const [params, setParams] = useSearchParams();
  const fromLink = params.get('voucher')?.slice(0, 40) ?? '';
  const [code, setCode] = useState(fromLink);
  const [done, setDone] = useState<Redeemed | null>(null);
  const { run, isPending, error, reset } = useToastedCall();
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (fromLink) card.current?.scrollIntoView?.({ block: 'center' });
  }, [fromLink]);

  const submit = async () => {
    setDone(null);
    const redeemed = await run<Redeemed>({
      url: '/vouchers/redeem',
      method: 'post',
      values: { code: code.trim() },
      success: false,
      fallbackKey: 'vouchers.redeem.failed',
      notifyError: false,
    });
    if (redeemed) {
      setDone(redeemed);
      setCode('');
      // A used code is not filled in again on a reload.
      if (params.has('voucher')) {
        const next = new URLSearchParams(params);
        next.delete('voucher');
        setParams(next, { replace: true });
      }
    }
  };
  const plan = done ? (planNameOf(done.subscription_id) ?? '') : '';
  return (
    <Card title={t('vouchers.redeem.title')} data-testid="redeem-voucher" ref={card}>
      <Typography.Paragraph type="secondary">{t('vouchers.redeem.hint')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={() => void submit()} requiredMark={false}>
        <Form.Item label={t('vouchers.redeem.code')} htmlFor="voucher-code" style={{ marginBottom: 12 }}>
          <Space.Compact style={{ width: '100%', maxWidth: 420 }}>
            <Input
              id="voucher-code"
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                if (error) reset();
              }}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={40}
              style={{ fontFamily: 'monospace', textTransform: 'uppercase' }}
            />
            <Button type="primary" htmlType="submit" loading={isPending} disabled={code.trim() === ''}>
              {t('vouchers.redeem.submit')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
      <div aria-live="polite">
        {error && <Alert type="error" showIcon message={error} data-testid="redeem-error" />}
        {done && (
          <Alert
            type="success"
            showIcon
            data-testid="redeem-done"
            message={redeemedText(done, plan).replace(/\s+/g, ' ')}
          />
        )}
      </div>
    </Card>
  );
}
