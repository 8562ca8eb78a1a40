import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Form, Input, Result, Space, Spin, theme } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { PublicInvoice } from '../../../contract/schemas/invoice';
import { isCompletePaymentStatus } from '../../../contract/schemas/payment';
import { useAuthState } from '../../../providers/auth-store';
import {
  forgetStartedPayment,
  invoiceIdFrom,
  invoicePagePath,
  invoicePdfUrl,
  startedPayment,
  useInvoiceApi,
} from '../../../resources/invoices/api';
import { isPayable } from '../../../resources/invoices/resource';
import { InvoiceDetails } from '../../../resources/invoices/InvoiceDetails';
import { PayButton } from '../../../resources/invoices/PayButton';
import { t } from '../../i18n';
import { usePublicSettings } from '../../site/portal-settings';
import { HeaderTitle } from '../../components/Text';

/** A light page frame for visitors: the company's logo and name, not the staff back office. */
function InvoiceFrame({ children }: { children: ReactNode }) {
  const settings = usePublicSettings();
  const { isAuthenticated } = useAuthState();
  const name = settings?.company?.name || t('app.name');
  const { token } = theme.useToken();
  return (
    <div
      className="invoice-page"
      style={{ minHeight: '100vh', background: token.colorBgLayout, color: token.colorText }}
    >
      <header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          padding: '12px 24px',
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Link
          to="/"
          style={{ display: 'flex', alignItems: 'center', gap: 8, color: 'inherit' }}
          data-testid="invoice-brand"
        >
          {settings?.company?.logo_url ? <img src={settings.company.logo_url} alt="" style={{ height: 32 }} /> : null}
          <strong>{name}</strong>
        </Link>
        <Link to={isAuthenticated ? '/dashboard' : '/'}>
          {isAuthenticated ? t('invoices.public.myAccount') : t('invoices.public.home')}
        </Link>
      </header>
      <main style={{ maxWidth: 880, margin: '32px auto', padding: '0 16px' }}>{children}</main>
    </div>
  );
}

/** /invoice without an id (spec §5 'No invoice ID provided'): where to find the link, and a box to paste it. */
function NoInvoiceId() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  return (
    <Card>
      <Result
        status="info"
        title={<HeaderTitle>{t('errors.invoices.noId')}</HeaderTitle>}
        subTitle={t('invoices.public.noIdText')}
        extra={
          <Form
            layout="vertical"
            style={{ maxWidth: 480, margin: '0 auto', textAlign: 'start' }}
            onFinish={(values: { invoice?: string }) => {
              const id = invoiceIdFrom(values.invoice ?? '');
              if (!id) {
                setError(t('invoices.public.invalidId'));
                return;
              }
              navigate(invoicePagePath(id));
            }}
          >
            <Form.Item
              name="invoice"
              label={t('invoices.public.pasteLabel')}
              validateStatus={error ? 'error' : undefined}
              help={error ?? undefined}
            >
              <Input placeholder={t('invoices.public.pastePlaceholder')} onChange={() => setError(null)} />
            </Form.Item>
            <Button type="primary" htmlType="submit">
              {t('invoices.public.open')}
            </Button>
          </Form>
        }
      />
    </Card>
  );
}

type Outcome = 'paid' | 'declined' | 'pending';

/** The outcome of a ?payment= value (sandbox: paid/failed/pending; Stripe: success/cancelled) or a payment status. */
export function outcomeOf(value: string): Outcome {
  const v = value.toLowerCase();
  if (isCompletePaymentStatus(v)) return 'paid';
  // expired: a checkout left unfinished past its lifetime (issue 31); no money was taken.
  if (['failed', 'declined', 'cancelled', 'canceled', 'refunded', 'error', 'expired'].includes(v)) return 'declined';
  return 'pending';
}

function PaymentResult({ outcome }: { outcome: Outcome }) {
  const type = outcome === 'paid' ? 'success' : outcome === 'declined' ? 'error' : 'info';
  return (
    <Alert
      role="status"
      data-testid="payment-result"
      style={{ marginBottom: 16 }}
      type={type}
      showIcon
      message={t(`invoices.result.${outcome}`)}
      description={t(`invoices.result.${outcome}Text`)}
    />
  );
}

type LoadState =
  | { state: 'loading' }
  | { state: 'ready'; invoice: PublicInvoice }
  | { state: 'notfound' }
  | { state: 'error'; message: string };

function statusCodeOf(error: unknown): number | undefined {
  const code = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** The invoice by its unguessable id: a document view, the PDF, and paying it. */
function InvoiceView({ id }: { id: string }) {
  const api = useInvoiceApi();
  const auth = useAuthState();
  const [search, setSearch] = useSearchParams();
  const [load, setLoad] = useState<LoadState>({ state: 'loading' });
  const returned = search.get('payment');
  const [outcome, setOutcome] = useState<Outcome | null>(returned ? outcomeOf(returned) : null);
  const checked = useRef(false);

  const fetchInvoice = useCallback(
    async (quiet = false) => {
      if (!quiet) setLoad({ state: 'loading' });
      try {
        const invoice = await api.invoice(id);
        setLoad({ state: 'ready', invoice });
        return invoice;
      } catch (error) {
        const code = statusCodeOf(error);
        if (code === 404 || code === 400) setLoad({ state: 'notfound' });
        else
          setLoad({
            state: 'error',
            message: error instanceof Error && error.message ? error.message : t('errors.invoices.one'),
          });
        return null;
      }
    },
    [api, id],
  );

  useEffect(() => {
    void fetchInvoice();
  }, [fetchInvoice]);

  // Back from the checkout (?payment=…): the payment started here is checked unless it is already complete
  // (spec §4); a failed check is ignored with a warning. Then the invoice is read again.
  const sessionSettled = !auth.isLoading && !auth.isRefreshing;
  useEffect(() => {
    if (!returned || checked.current || !sessionSettled) return;
    checked.current = true;
    const started = startedPayment(id);
    void (async () => {
      if (started && !isCompletePaymentStatus(started.status)) {
        try {
          const { payment } = await api.paymentStatus(started.transactionId);
          setOutcome(outcomeOf(payment.status));
          if (payment.status !== 'pending') forgetStartedPayment(id);
        } catch (error) {
          console.warn('[invoice] payment status check failed; showing the invoice as it is', error);
        }
      } else if (started) {
        forgetStartedPayment(id);
      }
      const invoice = await fetchInvoice(true);
      // The invoice is the truth: paid means paid; a "success" return on an invoice not yet paid is still
      // being confirmed by the provider.
      if (invoice?.status === 'paid') setOutcome('paid');
      else if (invoice) setOutcome((o) => (o === 'paid' ? 'pending' : o));
    })();
  }, [returned, sessionSettled, api, id, fetchInvoice]);

  if (load.state === 'loading') {
    return (
      <Card>
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      </Card>
    );
  }
  if (load.state === 'notfound') {
    return (
      <Card>
        <Result
          status="404"
          title={<HeaderTitle>{t('invoices.public.notFoundTitle')}</HeaderTitle>}
          subTitle={t('invoices.public.notFoundText')}
        />
      </Card>
    );
  }
  if (load.state === 'error') {
    return (
      <Card>
        <Result
          status="error"
          title={<HeaderTitle>{t('invoices.public.loadError')}</HeaderTitle>}
          subTitle={load.message}
          extra={<Button onClick={() => void fetchInvoice()}>{t('invoices.public.retry')}</Button>}
        />
      </Card>
    );
  }

  const invoice = load.invoice;
  const dismissResult = () => {
    setOutcome(null);
    search.delete('payment');
    setSearch(search, { replace: true });
  };
  return (
    <>
      {outcome && <PaymentResult outcome={outcome} />}
      <Card>
        <InvoiceDetails
          invoice={invoice}
          headingLevel={1}
          extra={
            <Space wrap>
              <Button
                href={invoicePdfUrl(invoice.id)}
                download={`${invoice.number}.pdf`}
                icon={<DownloadOutlined />}
                data-testid="invoice-pdf"
              >
                {t('invoices.actions.downloadPdf')}
              </Button>
              {isPayable(invoice) && (
                <span onClickCapture={outcome ? dismissResult : undefined}>
                  <PayButton invoice={invoice} size="large" onNoCheckout={() => void fetchInvoice(true)} />
                </span>
              )}
            </Space>
          }
        />
      </Card>
    </>
  );
}

/** /invoice and /invoice/:id (spec §2, public: outside the route guard). */
export function InvoicePage() {
  const { id } = useParams();
  return <InvoiceFrame>{id ? <InvoiceView key={id} id={id} /> : <NoInvoiceId />}</InvoiceFrame>;
}
