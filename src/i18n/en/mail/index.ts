/**
 * What the server sends people (e-mails, the invoice PDF and the voucher sheet; later SMS), in English: keys
 * mail.<module>.<text> and pdf.<document>.<text>. The other languages have them in the same file as the web app's
 * texts (src/i18n/locales/<code>.json), so adding a language stays one file; the web app never imports these
 * English ones (server/i18n.ts does).
 */
import { authMail } from './auth';
import { autopayMail } from './autopay';
import { billingMail } from './billing';
import { dunningMail } from './dunning';
import { bulkMail } from './bulk';
import { installationsMail } from './installations';
import { outagesMail } from './outages';
import { messagingMail } from './messaging';
import { pdfMail } from './pdf';
import { radiusMail } from './radius';
import { suspendedPage } from './suspended';
import { ticketsMail } from './tickets';

export const mail: Record<string, string> = {
  ...authMail,
  ...autopayMail,
  ...billingMail,
  ...dunningMail,
  ...bulkMail,
  ...installationsMail,
  ...outagesMail,
  ...messagingMail,
  ...pdfMail,
  ...radiusMail,
  ...suspendedPage,
  ...ticketsMail,
};
