import { useState } from 'react';
import { Button, Modal, Radio, Space, Tag } from 'antd';
import { useNotification } from '@refinedev/core';
import { useNavigate } from 'react-router';
import type { PublicGateway } from '../../contract/schemas/gateway';
import { useAuthState } from '../../providers/auth-store';
import { loginPathFor } from '../../providers/http-client';
import { t } from '../../src/i18n';
import { goToCheckout, invoicePagePath, rememberStartedPayment, useInvoiceApi } from './api';

export interface PayableInvoice {
  id: string;
  subscription_id?: string | null;
  plan_id?: string | null;
}

function messageOf(error: unknown, fallbackKey: string): string {
  return error instanceof Error && error.message ? error.message : t(fallbackKey);
}

/**
 * Pay an invoice (spec §7 POST /payments/initiate). Signed in: choose among the active gateways (the default
 * preselected; no choice when there is only one), initiate, then go to the checkout. Signed out: "Sign in to
 * pay" goes to /login remembering the invoice page, like the route guard does.
 */
export function PayButton({
  invoice,
  size,
  block,
  onNoCheckout,
}: {
  invoice: PayableInvoice;
  size?: 'small' | 'middle' | 'large';
  block?: boolean;
  onNoCheckout?: () => void;
}) {
  const auth = useAuthState();
  const navigate = useNavigate();
  const api = useInvoiceApi();
  const { open } = useNotification();
  const [busy, setBusy] = useState(false);
  const [gateways, setGateways] = useState<PublicGateway[] | null>(null);
  const [chosen, setChosen] = useState<string | undefined>();

  const toastError = (error: unknown, fallbackKey: string) =>
    open?.({ type: 'error', message: messageOf(error, fallbackKey), key: `pay-${invoice.id}` });

  const initiate = async (provider: string | undefined) => {
    setBusy(true);
    try {
      const started = await api.initiate({
        invoice_id: invoice.id,
        subscription_id: invoice.subscription_id ?? undefined,
        user_id: auth.user?.id,
        plan_id: invoice.plan_id ?? undefined,
        payment_method: provider,
      });
      rememberStartedPayment(invoice.id, {
        transactionId: started.transactionId,
        status: started.payment?.status ?? 'pending',
      });
      setGateways(null);
      const url = started.paymentUrl ?? started.redirectUrl;
      if (url) {
        goToCheckout(url);
        return;
      }
      open?.({ type: 'success', message: t('invoices.pay.noCheckout') });
      onNoCheckout?.();
    } catch (error) {
      toastError(error, 'errors.invoices.initiatePayment');
    } finally {
      setBusy(false);
    }
  };

  const start = async () => {
    setBusy(true);
    let active: PublicGateway[];
    try {
      active = await api.activeGateways();
    } catch (error) {
      setBusy(false);
      toastError(error, 'errors.gateways.list');
      return;
    }
    setBusy(false);
    if (active.length === 0) {
      open?.({ type: 'error', message: t('invoices.pay.noGateway') });
      return;
    }
    if (active.length === 1) {
      await initiate(active[0].provider);
      return;
    }
    setChosen((active.find((g) => g.is_default) ?? active[0]).id);
    setGateways(active);
  };

  if (!auth.isAuthenticated) {
    const waiting = auth.isLoading || auth.isRefreshing;
    return (
      <Button
        type="primary"
        size={size}
        block={block}
        loading={waiting}
        onClick={() => navigate(loginPathFor(invoicePagePath(invoice.id)))}
      >
        {t('invoices.actions.signInToPay')}
      </Button>
    );
  }

  return (
    <>
      <Button type="primary" size={size} block={block} loading={busy} onClick={() => void start()}>
        {t('invoices.actions.payNow')}
      </Button>
      <Modal
        open={gateways !== null}
        title={t('invoices.pay.chooseTitle')}
        okText={t('invoices.pay.continue')}
        cancelText={t('resource.cancel')}
        confirmLoading={busy}
        onCancel={() => setGateways(null)}
        onOk={() => void initiate(gateways?.find((g) => g.id === chosen)?.provider)}
        destroyOnHidden
      >
        <Radio.Group
          value={chosen}
          onChange={(e) => setChosen(e.target.value as string)}
          aria-label={t('invoices.pay.chooseTitle')}
        >
          <Space direction="vertical">
            {(gateways ?? []).map((g) => (
              <Radio key={g.id} value={g.id}>
                {g.name} {g.is_default ? <Tag>{t('invoices.pay.default')}</Tag> : null}
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Modal>
    </>
  );
}
