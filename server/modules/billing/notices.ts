/**
 * E-mails sent after another module's transaction committed: "invoice issued" (subscribe, renew, upgrade) and
 * "payment received". They read the committed invoice, so a rolled-back change never sends anything. A
 * failure here is logged and never fails the request that triggered it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { dayIn } from '../../../contract/time-zone';
import type { Db } from '../../db/client';
import type { InvoiceRow } from '../../db/schema';
import type { MailMessage } from '../../integrations/mail/mailer';
import { languageOf, mt } from '../../i18n';
import { invoiceIssuedMail, paymentReceivedMail, type InvoiceMailContext } from './emails';
import { createBillingRepository } from './repository';

export function invoiceContext(
  invoice: InvoiceRow,
  user: { email: string; name: string; language: string | null },
  company: string,
  appUrl: string,
  /** The ISP's default language, for a customer who chose none (settings.languages.default). */
  defaultLanguage: string,
): InvoiceMailContext {
  const language = languageOf(user.language, defaultLanguage);
  return {
    to: user.email,
    name: user.name,
    company,
    appUrl,
    language,
    invoice: {
      id: invoice.id,
      number: invoice.number,
      totalAmount: invoice.totalAmount,
      creditApplied: invoice.creditApplied,
      currency: invoice.currency,
      dueDate: invoice.dueDate,
      description: invoice.lineItems[0]?.description ?? mt(language, 'mail.billing.defaultDescription'),
    },
  };
}

export class BillingNotices {
  constructor(
    private readonly deps: {
      db: Db;
      appUrl: string;
      companyName: () => Promise<string>;
      /** The ISP's default language (settings.languages.default), for customers who chose none. */
      defaultLanguage: () => Promise<string>;
      /** The ISP's time zone (settings.time_zone): a payment's day is the day there; absent or null: in UTC. */
      timeZone?: () => Promise<string | null>;
      send: (message: MailMessage) => void;
      log: FastifyBaseLogger;
    },
  ) {}

  private async load(invoiceId: string): Promise<{ invoice: InvoiceRow; context: InvoiceMailContext } | null> {
    const row = await createBillingRepository(this.deps.db).invoiceWithCustomer(invoiceId);
    if (!row) return null;
    return {
      invoice: row.invoice,
      context: invoiceContext(
        row.invoice,
        row,
        await this.deps.companyName(),
        this.deps.appUrl,
        await this.deps.defaultLanguage(),
      ),
    };
  }

  private async guarded(kind: string, invoiceId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.deps.log.error({ err: error, invoiceId, kind }, 'could not prepare a billing e-mail');
    }
  }

  /**
   * "Invoice issued" for an invoice that is still open, or one paid in full by the customer's credit when it was
   * issued (the e-mail says there is nothing to pay); nothing is sent for one paid otherwise or cancelled.
   */
  invoiceIssued(invoiceId: string): Promise<void> {
    return this.guarded('invoice_issued', invoiceId, async () => {
      const found = await this.load(invoiceId);
      const open = found && (found.invoice.status === 'unpaid' || found.invoice.status === 'overdue');
      const paidByCredit =
        found &&
        found.invoice.status === 'paid' &&
        found.invoice.creditApplied > 0 &&
        found.invoice.creditApplied >= found.invoice.totalAmount;
      if (found && (open || paidByCredit)) this.deps.send(invoiceIssuedMail(found.context));
    });
  }

  /** "Payment received" for a paid invoice. */
  paymentReceived(invoiceId: string): Promise<void> {
    return this.guarded('payment_received', invoiceId, async () => {
      const found = await this.load(invoiceId);
      if (found?.invoice.status !== 'paid') return;
      const timeZone = (await this.deps.timeZone?.()) ?? null;
      const paidDate = dayIn(found.invoice.paidDate ?? new Date(), timeZone);
      this.deps.send(paymentReceivedMail({ ...found.context, paidDate }));
    });
  }
}
