/**
 * The invoice and payment calls of spec §7 that are not plain resource CRUD, through the app's data provider
 * (so they share the http client: bearer token, shared refresh, spec §8 fallbacks).
 */
import { useMemo } from 'react';
import { useDataProvider } from '@refinedev/core';
import type { PublicGateway } from '../../contract/schemas/gateway';
import type { PublicInvoice } from '../../contract/schemas/invoice';
import type { ManualPaymentInput, Payment, PaymentInitiated } from '../../contract/schemas/payment';
import { t } from '../../src/i18n';

export interface InitiateBody {
  invoice_id: string;
  subscription_id?: string | null;
  user_id?: string | null;
  plan_id?: string | null;
  payment_method?: string;
}

export interface InvoiceApi {
  invoice(id: string): Promise<PublicInvoice>;
  activeGateways(): Promise<PublicGateway[]>;
  initiate(body: InitiateBody): Promise<PaymentInitiated>;
  paymentStatus(transactionId: string): Promise<{ payment: Payment }>;
  recordManual(invoiceId: string, body: ManualPaymentInput): Promise<Payment>;
}

const enc = encodeURIComponent;

/** The invoice API on the app's data provider. */
export function useInvoiceApi(): InvoiceApi {
  const getProvider = useDataProvider();
  return useMemo(() => {
    const provider = getProvider();
    const call = async <T>(method: 'get' | 'post', url: string, fallbackKey: string, payload?: object): Promise<T> => {
      const res = await provider.custom!({ url, method, payload, meta: { fallbackMessage: t(fallbackKey) } });
      return res.data as T;
    };
    return {
      invoice: (id) => call<PublicInvoice>('get', `/payments/invoices/${enc(id)}`, 'errors.invoices.one'),
      activeGateways: async () => {
        const all = await call<PublicGateway[]>('get', '/payments/gateways', 'errors.gateways.list');
        // Managers get every gateway; customers only the active ones. Either way only active ones can be used.
        return (Array.isArray(all) ? all : [])
          .filter((g) => g.is_active)
          .sort((a, b) => a.display_order - b.display_order);
      },
      initiate: (body) => call<PaymentInitiated>('post', '/payments/initiate', 'errors.invoices.initiatePayment', body),
      paymentStatus: (transactionId) =>
        call<{ payment: Payment }>('get', `/payments/status/${enc(transactionId)}`, 'errors.invoices.paymentStatus'),
      recordManual: (invoiceId, body) =>
        call<Payment>('post', `/payments/invoices/${enc(invoiceId)}/manual`, 'errors.invoices.recordPayment', body),
    };
  }, [getProvider]);
}

/** The PDF of an invoice (GET /api/payments/invoices/{id}/pdf), as a link target. */
export function invoicePdfUrl(id: string): string {
  return `/api/payments/invoices/${enc(id)}/pdf`;
}

/** Sends the browser to the provider's checkout (a full page load: the checkout is another site). */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}

/** The public page of an invoice. */
export function invoicePagePath(id: string): string {
  return `/invoice/${enc(id)}`;
}

// ---------------------------------------------------------------------------------------------------------
// The payment started from this browser, kept for the return from the provider's checkout: the redirect back
// carries only ?payment=<outcome>, so the transaction id to check is remembered here, per invoice.

const PENDING_KEY = (invoiceId: string) => `invoice-payment:${invoiceId}`;

export interface StartedPayment {
  transactionId: string;
  status: string;
}

export function rememberStartedPayment(invoiceId: string, payment: StartedPayment): void {
  try {
    sessionStorage.setItem(PENDING_KEY(invoiceId), JSON.stringify(payment));
  } catch {
    /* storage unavailable: the return page then only refreshes the invoice */
  }
}

export function startedPayment(invoiceId: string): StartedPayment | null {
  try {
    const raw = sessionStorage.getItem(PENDING_KEY(invoiceId));
    const parsed = raw ? (JSON.parse(raw) as Partial<StartedPayment>) : null;
    return parsed && typeof parsed.transactionId === 'string'
      ? { transactionId: parsed.transactionId, status: String(parsed.status ?? '') }
      : null;
  } catch {
    return null;
  }
}

export function forgetStartedPayment(invoiceId: string): void {
  try {
    sessionStorage.removeItem(PENDING_KEY(invoiceId));
  } catch {
    /* ignore */
  }
}

/** Extracts an invoice id from a pasted link (…/invoice/<id>?…) or a bare id. */
export function invoiceIdFrom(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  const fromLink = /\/invoice\/([^/?#\s]+)/.exec(text);
  const id = fromLink ? decodeURIComponent(fromLink[1]) : text;
  return /^[A-Za-z0-9-]{8,64}$/.test(id) ? id : null;
}
