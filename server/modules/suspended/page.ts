/**
 * The suspended customer's page (issue 38) as plain server-rendered HTML in the hotspot page's frame (no SPA
 * bundle: the walled garden lets little through, and a phone on it loads this at once). It says why the service
 * is suspended and offers the one thing that ends it: paying the open invoice, a form posted to
 * /suspended/<token>/pay. Texts are page.suspended.* (src/i18n/en/mail/suspended.ts and the locale files); money
 * and the due date are written with Intl in the reader's language (a due date is a calendar day: no time zone).
 */
import type { LanguageCode } from '../../../contract/languages';
import type { PublicSettings } from '../../../contract/schemas/settings';
import { localeOf, translatorFor } from '../../i18n';
import { mailMoney } from '../billing/emails';
import { escapeHtml, layout } from '../hotspot/page';
import type { SuspendedState } from './lookup';

const STYLE = `
h2.title { font-size: 18px; margin: 0 0 12px; }
.amount { font-size: 28px; font-weight: 700; color: var(--text); margin: 0 0 4px; }
a.button { display: block; text-align: center; text-decoration: none; }
a { color: var(--primary); }
ul.links { list-style: none; padding: 0; margin: 16px 0 0; display: flex; gap: 16px; flex-wrap: wrap; }
`;

/** The page's Content-Security-Policy: no script at all; the pay form posts here and is redirected to the gateway. */
export const SUSPENDED_PAGE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const dayText = (isoDay: string, language: LanguageCode) => {
  const date = new Date(`${isoDay.slice(0, 10)}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) return isoDay;
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'long', timeZone: 'UTC' }).format(date);
};

function contactLine(settings: PublicSettings, t: (key: string, params?: Record<string, string>) => string): string {
  const contact = settings.company.support_phone || settings.company.support_email;
  return contact ? `<p class="small">${escapeHtml(t('page.suspended.contact', { contact }))}</p>` : '';
}

const links = (t: (key: string) => string) =>
  `<ul class="links"><li><a href="/login">${escapeHtml(t('page.suspended.signIn'))}</a></li><li><a href="/">${escapeHtml(t('page.suspended.home'))}</a></li></ul>`;

/** The page of a suspended subscription: why, how much, and the Pay button (when there is an invoice to pay). */
export function renderSuspended(
  settings: PublicSettings,
  state: SuspendedState,
  token: string,
  language: LanguageCode,
  error = '',
): string {
  const t = translatorFor(language);
  const say = (key: string, params?: Record<string, string>) => escapeHtml(t(key, params));
  const invoice = state.invoice;
  const amount = invoice ? mailMoney(invoice.due, invoice.currency, language) : '';
  const lead = invoice
    ? say('page.suspended.leadInvoice', {
        plan: state.planName,
        number: invoice.number,
        dueDate: dayText(invoice.dueDate, language),
      })
    : say('page.suspended.lead', { plan: state.planName });
  const reason =
    state.suspensionReason && !invoice
      ? `<p data-testid="suspension-reason">${say('page.suspended.reason', { reason: state.suspensionReason })}</p>`
      : '';
  const pay = invoice
    ? `<p>${say('page.suspended.amountDue')}</p>
<p class="amount" data-testid="amount-due">${escapeHtml(amount)}</p>
<form method="post" action="/suspended/${escapeHtml(token)}/pay">
<button type="submit">${say('page.suspended.pay', { amount })}</button>
</form>
<p class="small">${say('page.suspended.restore')}</p>`
    : `<p>${say('page.suspended.noInvoice')}</p>`;
  const problem = error ? `<p class="error" role="alert">${say(error)}</p>` : '';
  return layout(
    settings,
    language,
    t('page.suspended.title'),
    `<h2 class="title">${say('page.suspended.title')}</h2>
<p>${say('page.suspended.greeting', { name: state.firstName })}</p>
<p data-testid="suspended-lead">${lead}</p>
${reason}${problem}${pay}
${contactLine(settings, t)}${links(t)}`,
    STYLE,
  );
}

/** No suspended subscription here (not suspended, or no session at this address), or a link that does not count. */
export function renderNotice(
  settings: PublicSettings,
  language: LanguageCode,
  kind: 'notSuspended' | 'unknown' | 'badLink' | 'expiredLink' | 'tooMany',
): string {
  const t = translatorFor(language);
  const title = t(kind === 'notSuspended' ? 'page.suspended.notSuspended.title' : 'page.suspended.unknown.title');
  const text = escapeHtml(t(`page.suspended.${kind === 'notSuspended' || kind === 'unknown' ? `${kind}.lead` : kind}`));
  const body =
    kind === 'badLink' || kind === 'expiredLink' ? `<p class="error" role="alert">${text}</p>` : `<p>${text}</p>`;
  return layout(
    settings,
    language,
    title,
    `<h2 class="title">${escapeHtml(title)}</h2>
${body}
${contactLine(settings, t)}${links(t)}`,
    STYLE,
  );
}
