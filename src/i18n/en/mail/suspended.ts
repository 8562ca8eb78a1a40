/** The suspended customer's page (server/modules/suspended/page.ts, issue 38), in every language through the locale files. */
export const suspendedPage: Record<string, string> = {
  'page.suspended.title': 'Your internet service is suspended',
  'page.suspended.greeting': 'Hello {name},',
  'page.suspended.leadInvoice':
    'Your {plan} service is suspended because invoice {number}, due on {dueDate}, has not been paid.',
  'page.suspended.lead': 'Your {plan} service is suspended.',
  'page.suspended.reason': 'Reason: {reason}',
  'page.suspended.amountDue': 'Amount to pay:',
  'page.suspended.pay': 'Pay {amount} now',
  'page.suspended.restore':
    'You do not need to sign in. Once the payment goes through, your connection restarts by itself and the service is back within a minute.',
  'page.suspended.noInvoice': 'There is no invoice to pay online. Please contact us to restore your service.',
  'page.suspended.payFailed': 'The payment could not be started right now. Please try again in a few minutes.',
  'page.suspended.contact': 'Questions? Contact us: {contact}',
  'page.suspended.signIn': 'Sign in to your account',
  'page.suspended.home': 'Home page',
  'page.suspended.notSuspended.title': 'Your service is not suspended',
  'page.suspended.notSuspended.lead':
    'This connection is not suspended. If web pages still do not open, wait a minute or restart your router.',
  'page.suspended.unknown.title': 'Pay your bill',
  'page.suspended.unknown.lead':
    'We could not tell which account this connection belongs to. Sign in to see and pay your invoices.',
  'page.suspended.badLink':
    'This payment link is not valid. Open any web page from your home connection to get a new one, or sign in.',
  'page.suspended.expiredLink':
    'This payment link has expired. Open any web page from your home connection to get a new one, or sign in.',
  'page.suspended.tooMany': 'Too many requests. Please wait a minute and try again.',
};
