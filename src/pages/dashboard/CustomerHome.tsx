/**
 * The customer's home (issue 34): what a customer opens the portal for, at a glance on a phone, in order of
 * importance: an open order's next step, their service (online now?), this cycle's usage against the cap, the
 * next bill with Pay (or the autopay card), their credit and open tickets. One request (GET /me/home). No chart
 * library and no date library: the customer's first screen stays light (npm run bench:web).
 */
import { lazy, memo, Suspense, useDeferredValue, type ReactNode } from 'react';
import { Alert, Button, Flex, Spin, Tag, theme } from 'antd';
import { useCustom, useCustomMutation } from '@refinedev/core';
import { Link, useNavigate } from 'react-router';
import { formatKbps } from '../../../contract/rate';
import type { CustomerHome as Home, HomeInvoice } from '../../../contract/schemas/home';
import { retryUnlessClientError } from '../../components/retry';
import { SecondaryText, StrongText } from '../../components/Text';
import { t } from '../../i18n';
import { useAuthState } from '../../../providers/auth-store';
import { dayText, money } from '../../../resources/invoices/format';
import { formatDateTime } from '../../components/dates';
import type { PayableInvoice } from '../../../resources/invoices/PayButton';
import { formatBytes } from '../../../resources/traffic/format';

/**
 * Pay (resources/invoices/PayButton.tsx) comes right after the figures, with the screens' texts it shows (as a
 * lazily loaded screen does, src/routes.tsx): its gateway choice dialog is not the home's first download.
 */
/**
 * The outage banner (issue 38) loads only when an incident reaches the customer: most homes never show one, so its
 * code is not in every first download (bench:web's budget for the customer's home).
 */
const IncidentBanner = lazy(() => import('./IncidentBanner').then((m) => ({ default: m.IncidentBanner })));

const LazyPayButton = lazy(async () => {
  await import('../../i18n/screens');
  const { PayButton } = await import('../../../resources/invoices/PayButton');
  return { default: PayButton };
});

function Pay({ invoice }: { invoice: PayableInvoice }) {
  return (
    <Suspense
      fallback={
        <Button type="primary" loading>
          {t('home.pay')}
        </Button>
      }
    >
      <LazyPayButton invoice={invoice} />
    </Suspense>
  );
}

/** A moment as the reader's day and time (the portal's one date format, src/components/dates.ts). */
const dateTimeText = (iso: string) => formatDateTime(iso);

const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);
const subscriptionPath = (id: string) => `/subscription/${encodeURIComponent(id)}`;
const ticketPath = (id: string) => `/dashboard/tickets/${encodeURIComponent(id)}`;
const SUBSCRIPTIONS = '/dashboard/subscriptions';

function Heading({ children, level = 2 }: { children: ReactNode; level?: 1 | 2 }) {
  const { token } = theme.useToken();
  const Tag = level === 1 ? 'h1' : 'h2';
  const size = level === 1 ? token.fontSizeHeading3 : token.fontSizeHeading5;
  return (
    <Tag
      style={{
        margin: 0,
        color: token.colorTextHeading,
        fontSize: size,
        fontWeight: token.fontWeightStrong,
        lineHeight: 1.35,
      }}
    >
      {children}
    </Tag>
  );
}

/*
 * A status dot and a usage bar drawn here rather than with antd's Badge and Progress: those two brought about 8 KB
 * of compressed script to the customer's first screen, over its 300 KB budget (npm run bench:web), for a dot and a
 * bar (the same trade as src/components/Text.tsx makes for Typography).
 */
function Dot({ on, children, testId }: { on: boolean; children: ReactNode; testId: string }) {
  const { token } = theme.useToken();
  return (
    <span data-testid={testId} style={{ display: 'inline-flex', alignItems: 'baseline', gap: 8 }}>
      <span
        aria-hidden
        style={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          flex: 'none',
          background: on ? token.colorSuccess : token.colorTextQuaternary,
        }}
      />
      <span>{children}</span>
    </span>
  );
}

function UsageBar({ percent, label }: { percent: number; label: string }) {
  const { token } = theme.useToken();
  const full = percent >= 100;
  return (
    <Flex align="center" gap={8}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        style={{ flex: 1, height: 8, borderRadius: 4, background: token.colorFillSecondary, overflow: 'hidden' }}
      >
        <div
          style={{
            width: `${Math.min(100, percent)}%`,
            height: '100%',
            borderRadius: 4,
            background: full ? token.colorError : token.colorPrimary,
          }}
        />
      </div>
      <span style={{ minWidth: 40, textAlign: 'end' }}>{`${percent}%`}</span>
    </Flex>
  );
}

/**
 * A card of the home in antd's small card's look (border, radius, header line), drawn here rather than with antd's
 * Card: that component brings antd's Tabs (for a card with tabs) and with them about 12 KB of compressed script
 * the home never uses (npm run bench:web, the customer's 300 KB budget).
 */
function HomeCard({
  title,
  testId,
  extra,
  children,
}: {
  title: string;
  testId: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <section
      data-testid={testId}
      className="home-card"
      style={{
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        color: token.colorText,
      }}
    >
      <Flex
        justify="space-between"
        align="center"
        gap={8}
        wrap
        style={{
          minHeight: 38,
          padding: `0 ${token.paddingSM}px`,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Heading>{title}</Heading>
        {extra}
      </Flex>
      <Flex vertical gap={8} style={{ padding: token.paddingSM }}>
        {children}
      </Flex>
    </section>
  );
}

function OrderCard({ order }: { order: NonNullable<Home['order']> }) {
  const visit = order.installation;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="home-order"
      message={
        <StrongText>
          {t(order.next_step === 'payment' ? 'home.order.waitingPayment' : 'home.order.waitingInstallation', {
            plan: order.plan_name,
          })}
        </StrongText>
      }
      description={
        <Flex vertical gap={8} style={{ marginTop: 4 }}>
          {order.invoice && (
            <span>
              {t('home.order.invoice', {
                number: order.invoice.number,
                amount: money(order.invoice.amount_due, order.invoice.currency),
                date: dayText(order.invoice.due_date),
              })}
            </span>
          )}
          {visit && (
            <span>
              {visit.scheduled_start
                ? t('home.order.visit', { date: dateTimeText(visit.scheduled_start) })
                : t('home.order.visitToBook')}
            </span>
          )}
          <Flex wrap gap={12} align="center">
            {order.invoice && (
              <Pay invoice={{ id: order.invoice.id, subscription_id: order.invoice.subscription_id }} />
            )}
            <Link to={subscriptionPath(order.subscription_id)}>{t('home.order.details')}</Link>
          </Flex>
        </Flex>
      }
    />
  );
}

function ServiceCard({ service, ordered }: { service: Home['service']; ordered: boolean }) {
  if (!service) {
    return (
      <HomeCard title={t('home.service.title')} testId="home-service">
        <span>{t('home.service.none')}</span>
        {/* One open order at a time: with one waiting, its next step is the way to a service. */}
        {!ordered && <Link to={SUBSCRIPTIONS}>{t('home.service.choosePlan')}</Link>}
      </HomeCard>
    );
  }
  const suspended = service.status === 'suspended';
  return (
    <HomeCard
      title={t('home.service.title')}
      testId="home-service"
      extra={
        <Tag color={suspended ? 'red' : 'green'} style={{ marginInlineEnd: 0 }}>
          {t(`home.service.status.${service.status}`)}
        </Tag>
      }
    >
      <StrongText>{service.plan_name}</StrongText>
      <span>{t('home.service.speed', { down: String(service.download_mbps), up: String(service.upload_mbps) })}</span>
      {suspended && (
        <Alert
          type="error"
          showIcon
          message={
            service.suspension_reason
              ? t('home.service.suspended', { reason: service.suspension_reason })
              : t('home.service.suspendedNoReason')
          }
        />
      )}
      {service.online ? (
        <div>
          <Dot on testId="home-online">
            {t('home.service.online', { since: dateTimeText(service.online.since) })}
          </Dot>
          {service.online.ip && (
            <div>
              <SecondaryText testId="home-ip">{t('home.service.ip', { ip: service.online.ip })}</SecondaryText>
            </div>
          )}
        </div>
      ) : (
        <Dot on={false} testId="home-offline">
          {service.last_seen
            ? t('home.service.offline', { date: dateTimeText(service.last_seen) })
            : t('home.service.neverOnline')}
        </Dot>
      )}
      <Link to={subscriptionPath(service.subscription_id)}>{t('home.service.details')}</Link>
    </HomeCard>
  );
}

type FairUse = NonNullable<NonNullable<Home['usage']>['fair_use']>;
const rateText = (r: { download_kbps: number; upload_kbps: number }) => formatKbps(r.download_kbps, r.upload_kbps);

/** Fair use (issue 36): the tier now, what happens at the next threshold, and the top-ups on sale. */
function FairUseLines({ fairUse, subscriptionId }: { fairUse: FairUse; subscriptionId: string | null }) {
  const next = fairUse.next;
  return (
    <div data-testid="home-fair-use">
      <span>
        {fairUse.rate === null
          ? t('home.fairUse.stopped')
          : fairUse.tier === 0
            ? t('home.fairUse.fullSpeed', { rate: rateText(fairUse.rate) })
            : t('home.fairUse.tier', { tier: String(fairUse.tier), rate: rateText(fairUse.rate) })}
      </span>
      {next && (
        <SecondaryText>
          {next.stop || !next.rate
            ? t('home.fairUse.nextStop', { after: formatBytes(next.after_bytes) })
            : t('home.fairUse.next', { after: formatBytes(next.after_bytes), rate: rateText(next.rate) })}
        </SecondaryText>
      )}
      {subscriptionId && fairUse.top_ups.length > 0 && (
        <Flex wrap gap={8}>
          {fairUse.top_ups.map((p) => (
            <TopUpButton key={p.id} pkg={p} subscriptionId={subscriptionId} />
          ))}
        </Flex>
      )}
    </div>
  );
}

function TopUpButton({ pkg, subscriptionId }: { pkg: FairUse['top_ups'][number]; subscriptionId: string }) {
  const { mutate, mutation } = useCustomMutation<{ invoice: { id: string } | null }>();
  const navigate = useNavigate();
  const label =
    pkg.kind === 'extra_data'
      ? t('home.fairUse.buyData', { gb: String(pkg.data_gb ?? 0), price: money(pkg.price, pkg.currency) })
      : t('home.fairUse.buyFullSpeed', { price: money(pkg.price, pkg.currency) });
  return (
    <Button
      size="small"
      loading={mutation.isPending}
      onClick={() =>
        mutate(
          {
            url: `/me/subscriptions/${encodeURIComponent(subscriptionId)}/top-ups`,
            method: 'post',
            values: { package_id: pkg.id },
            successNotification: false,
          },
          {
            onSuccess: ({ data }) => {
              if (data.invoice) void navigate(`/invoice/${encodeURIComponent(data.invoice.id)}`);
            },
          },
        )
      }
    >
      {label}
    </Button>
  );
}

function UsageCard({ usage, subscriptionId }: { usage: NonNullable<Home['usage']>; subscriptionId: string | null }) {
  const used = formatBytes(usage.used_bytes);
  // The period's end is exclusive: its last day is the day before.
  const lastDay = dayText(new Date(Date.parse(`${usage.period_end}T00:00:00Z`) - 86_400_000).toISOString());
  const left =
    usage.days_left === 0
      ? t('home.usage.lastDay')
      : usage.days_left === 1
        ? t('home.usage.dayLeft', { date: lastDay })
        : t('home.usage.daysLeft', { days: String(usage.days_left), date: lastDay });
  return (
    <HomeCard title={t('home.usage.title')} testId="home-usage">
      <StrongText>
        {usage.cap_bytes === null
          ? t('home.usage.unlimited', { used })
          : t('home.usage.ofCap', { used, cap: formatBytes(usage.cap_bytes) })}
      </StrongText>
      {usage.percent !== null && <UsageBar percent={usage.percent} label={t('home.usage.progress')} />}
      {usage.fair_use && <FairUseLines fairUse={usage.fair_use} subscriptionId={subscriptionId} />}
      <SecondaryText>{left}</SecondaryText>
      <Link to="/dashboard/usage">{t('home.usage.details')}</Link>
    </HomeCard>
  );
}

function InvoiceLines({ invoice }: { invoice: HomeInvoice }) {
  return (
    <>
      <Flex wrap gap={8} align="baseline" justify="space-between">
        <span style={{ fontSize: 24, fontWeight: 600 }} data-testid="home-bill-amount">
          {money(invoice.amount_due, invoice.currency)}
        </span>
        {invoice.status === 'overdue' && <Tag color="red">{t('home.bill.overdue')}</Tag>}
      </Flex>
      <span>{t('home.bill.invoice', { number: invoice.number })}</span>
      <SecondaryText>{t('home.bill.due', { date: dayText(invoice.due_date) })}</SecondaryText>
    </>
  );
}

function BillCard({ bill, orderInvoice }: { bill: Home['bill']; orderInvoice: boolean }) {
  const card = bill.autopay_card;
  const cardArgs = card ? { brand: brandName(card.brand), last4: card.last4 } : undefined;
  return (
    <HomeCard
      title={t('home.bill.title')}
      testId="home-bill"
      extra={<Link to={SUBSCRIPTIONS}>{t('home.bill.all')}</Link>}
    >
      {bill.invoice ? (
        <>
          <InvoiceLines invoice={bill.invoice} />
          {cardArgs && <span data-testid="home-autopay">{t('home.bill.autopay', cardArgs)}</span>}
          {bill.more_unpaid > 0 && (
            <SecondaryText>{t('home.bill.more', { count: String(bill.more_unpaid) })}</SecondaryText>
          )}
          <div>
            <Pay invoice={{ id: bill.invoice.id, subscription_id: bill.invoice.subscription_id }} />
          </div>
        </>
      ) : (
        <>
          <StrongText>{t(orderInvoice ? 'home.bill.nothingElse' : 'home.bill.nothing')}</StrongText>
          {cardArgs && <span data-testid="home-autopay">{t('home.bill.autopayNext', cardArgs)}</span>}
        </>
      )}
    </HomeCard>
  );
}

function CreditCard({ credit }: { credit: Home['credit'] }) {
  return (
    <HomeCard title={t('home.credit.title')} testId="home-credit">
      {credit.length === 0 ? (
        <span>{t('home.credit.none')}</span>
      ) : (
        <>
          {credit.map((c) => (
            <span key={c.currency} style={{ fontSize: 20, fontWeight: 600 }}>
              {money(c.amount, c.currency)}
            </span>
          ))}
          <SecondaryText>{t('home.credit.help')}</SecondaryText>
        </>
      )}
    </HomeCard>
  );
}

function TicketsCard({ tickets }: { tickets: Home['tickets'] }) {
  const count =
    tickets.open === 0
      ? t('home.tickets.none')
      : tickets.open === 1
        ? t('home.tickets.one')
        : t('home.tickets.count', { count: String(tickets.open) });
  return (
    <HomeCard
      title={t('home.tickets.title')}
      testId="home-tickets"
      extra={<Link to="/dashboard/tickets">{t('home.tickets.all')}</Link>}
    >
      <StrongText>{count}</StrongText>
      {tickets.latest.length > 0 && (
        <ul
          style={{
            margin: 0,
            paddingInlineStart: 0,
            listStyle: 'none',
            display: 'flex',
            flexDirection: 'column',
            gap: 6,
          }}
        >
          {tickets.latest.map((ticket) => (
            <li key={ticket.id} style={{ overflowWrap: 'anywhere' }}>
              <Link to={ticketPath(ticket.id)}>{`${ticket.number} · ${ticket.subject}`}</Link>{' '}
              <Tag>{t(`home.tickets.status.${ticket.status}`)}</Tag>
            </li>
          ))}
        </ul>
      )}
      {tickets.open === 0 && <Link to="/dashboard/tickets">{t('home.tickets.new')}</Link>}
    </HomeCard>
  );
}

/** /dashboard for a customer (role user). */
export function CustomerHome() {
  const { user } = useAuthState();
  const { query, result } = useCustom<Home>({
    url: '/me/home',
    method: 'get',
    meta: { fallbackMessage: t('home.error') },
    errorNotification: false,
    queryOptions: { retry: retryUnlessClientError },
  });
  // Refine's result holds an empty placeholder until the answer is in: only a successful answer is drawn.
  const answered = query.isSuccess ? (result.data as Home) : undefined;
  // The cards are drawn as a deferred update, which React renders in slices between which the page stays
  // responsive (the query's answer itself arrives as an update React must render at once, in one long task on a
  // slow phone; issue 34). Until they are drawn the spinner stays.
  const home = useDeferredValue(answered);
  const name = answered?.name ?? user?.name ?? '';

  return (
    <Flex vertical gap={16} data-testid="customer-home">
      <div>
        <Heading level={1}>{t('home.welcome', { name })}</Heading>
        <SecondaryText>{t('home.subtitle')}</SecondaryText>
      </div>
      {(query.isLoading || (answered && home !== answered)) && (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      )}
      {query.isError && (
        <Alert
          type="error"
          showIcon
          message={t('home.error')}
          data-testid="home-error"
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t('home.retry')}
            </Button>
          }
        />
      )}
      {home && <HomeCards home={home} />}
    </Flex>
  );
}

/** The home's cards; memoised, so the answer's urgent render does not draw them ahead of the deferred one. */
const HomeCards = memo(function HomeCards({ home }: { home: Home }) {
  return (
    <>
      {home.incidents?.length ? (
        <Suspense fallback={null}>
          <IncidentBanner incidents={home.incidents} />
        </Suspense>
      ) : null}
      {home.order && <OrderCard order={home.order} />}
      <div
        style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))', gap: 16 }}
      >
        <ServiceCard service={home.service} ordered={!!home.order} />
        {home.usage && <UsageCard usage={home.usage} subscriptionId={home.service?.subscription_id ?? null} />}
        <BillCard bill={home.bill} orderInvoice={!!home.order?.invoice} />
        <CreditCard credit={home.credit} />
        <TicketsCard tickets={home.tickets} />
      </div>
    </>
  );
});
