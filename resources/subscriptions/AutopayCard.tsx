import { Alert, Button, Card, Popconfirm, Space, Typography } from 'antd';
import { CreditCardOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import type { AutopayState } from '../../contract/schemas/autopay';
import type { Subscription } from '../../contract/schemas/subscription';
import { t } from '../../src/i18n';
import { useSubscriptionCall } from './hooks';
import { formatDay, formatMomentDay } from '../../src/components/dates';
import { SectionHeading } from '../../src/components/Text';

type SavedCard = NonNullable<AutopayState['card']>;
const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);
const cardText = (card: SavedCard) => t('autopay.card', { brand: brandName(card.brand), last4: card.last4 });
const expiry = (card: SavedCard) =>
  t('autopay.expires', { month: String(card.exp_month).padStart(2, '0'), year: String(card.exp_year) });
const day = (iso: string) => formatDay(iso);

/**
 * "Pay automatically" on a subscription (issue 21). The customer turns it on (saving a card on the provider's
 * page, or with the card they already saved), replaces or removes the card; staff see the state and the last
 * failure. Removing the card stops autopay on every subscription that used it.
 */
export function AutopayCard({ subscription, owner }: { subscription: Subscription; owner: boolean }) {
  const state = subscription.autopay;
  const { run, isPending } = useSubscriptionCall();
  const [params] = useSearchParams();
  if (!state) return null;
  const base = `/subscriptions/${encodeURIComponent(subscription.id)}/autopay`;
  const open = ['pending', 'active', 'suspended'].includes(subscription.status);

  const setup = async () => {
    const res = await run<{ paymentUrl: string }>({
      url: `${base}/setup`,
      method: 'post',
      success: false,
      fallbackKey: 'errors.autopay.setup',
    });
    if (res?.paymentUrl) window.location.assign(res.paymentUrl);
  };
  const toggle = (enabled: boolean) =>
    run({
      url: base,
      method: 'patch',
      values: { enabled },
      success: t(enabled ? 'autopay.toast.enabled' : 'autopay.toast.disabled'),
      fallbackKey: 'errors.autopay.toggle',
    });
  const remove = (id: string) =>
    run({
      url: `/payments/methods/${encodeURIComponent(id)}`,
      method: 'delete',
      success: t('autopay.toast.removed'),
      fallbackKey: 'errors.autopay.remove',
    });

  const returned = owner ? params.get('autopay') : null;
  return (
    <Card
      title={
        <Space>
          <CreditCardOutlined aria-hidden />
          <SectionHeading>{t('autopay.title')}</SectionHeading>
        </Space>
      }
      data-testid="autopay-card"
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        {returned === 'saved' && state.enabled && <Alert type="success" showIcon message={t('autopay.saved')} />}
        {returned === 'cancelled' && !state.enabled && <Alert type="info" showIcon message={t('autopay.cancelled')} />}
        {state.card ? (
          <div data-testid="autopay-saved-card">
            <Typography.Text strong>{cardText(state.card)}</Typography.Text>
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              {expiry(state.card)}
            </Typography.Text>
            <Typography.Paragraph style={{ margin: '8px 0 0' }}>{t('autopay.on')}</Typography.Paragraph>
          </div>
        ) : (
          <Typography.Paragraph style={{ margin: 0 }} data-testid="autopay-off">
            {owner ? t('autopay.off') : t('autopay.staffOff')}
          </Typography.Paragraph>
        )}
        {state.last_failure && (
          <Alert
            type="warning"
            showIcon
            message={t('autopay.lastFailure', {
              date: formatMomentDay(state.last_failure.at),
              message: state.last_failure.message,
            })}
            description={state.next_retry ? t('autopay.nextRetry', { date: day(state.next_retry) }) : undefined}
          />
        )}
        {owner && open && (
          <Space wrap>
            {!state.card && state.available_card && (
              <Button type="primary" loading={isPending} onClick={() => toggle(true)}>
                {t('autopay.turnOnWithCard', { card: cardText(state.available_card) })}
              </Button>
            )}
            {!state.card && (
              <Button type={state.available_card ? 'default' : 'primary'} loading={isPending} onClick={setup}>
                {state.available_card ? t('autopay.replace') : t('autopay.turnOn')}
              </Button>
            )}
            {state.card && (
              <Button loading={isPending} onClick={setup}>
                {t('autopay.replace')}
              </Button>
            )}
            {state.card && (
              <Button loading={isPending} onClick={() => toggle(false)}>
                {t('autopay.turnOff')}
              </Button>
            )}
          </Space>
        )}
        {owner && (state.card ?? state.available_card) && (
          <Popconfirm
            title={t('autopay.removeConfirm')}
            onConfirm={() => remove((state.card ?? state.available_card)!.id)}
            okButtonProps={{ danger: true }}
          >
            <Button danger loading={isPending}>
              {t('autopay.remove')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    </Card>
  );
}
