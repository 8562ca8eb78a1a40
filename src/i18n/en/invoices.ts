/**
 * Invoice and payment screens (issue 4): the public invoice page, the staff invoices list and the customer's
 * own invoices. Spec §8 texts ('Invoice deleted successfully', the error fallbacks in errors.ts) are verbatim;
 * the rest fills what the spec leaves open.
 */
export const invoices: Record<string, string> = {
  'invoices.title': 'Invoices',
  'invoices.singular': 'Invoice',
  'invoices.myTitle': 'My invoices',

  'invoices.fields.number': 'Number',
  'invoices.fields.customer': 'Customer',
  'invoices.fields.email': 'E-mail',
  'invoices.fields.plan': 'Plan',
  'invoices.fields.status': 'Status',
  'invoices.fields.subtotal': 'Subtotal',
  'invoices.fields.tax': 'Tax',
  'invoices.fields.taxRate': 'Tax ({rate}%)',
  'invoices.fields.total': 'Total',
  'invoices.fields.issueDate': 'Issue date',
  'invoices.fields.dueDate': 'Due date',
  'invoices.fields.paidDate': 'Paid date',
  'invoices.fields.billTo': 'Bill to',
  'invoices.fields.lineItems': 'Items',
  'invoices.fields.description': 'Description',
  'invoices.fields.quantity': 'Qty',
  'invoices.fields.unitAmount': 'Unit price',
  'invoices.fields.amount': 'Amount',
  'invoices.fields.dateRange': 'Issued between',
  'invoices.fields.userId': 'Customer id',

  'invoices.status.unpaid': 'Unpaid',
  'invoices.status.paid': 'Paid',
  'invoices.status.overdue': 'Overdue',
  'invoices.status.cancelled': 'Cancelled',
  'invoices.status.refunded': 'Refunded',

  'invoices.toast.deleted': 'Invoice deleted successfully',
  'invoices.toast.recorded': 'Payment recorded successfully',

  'invoices.actions.pdf': 'PDF',
  'invoices.actions.downloadPdf': 'Download PDF',
  'invoices.actions.publicPage': 'Open the public invoice page',
  'invoices.actions.recordPayment': 'Record payment',
  'invoices.actions.payNow': 'Pay now',
  'invoices.actions.signInToPay': 'Sign in to pay',
  'invoices.actions.open': 'Open',

  'invoices.record.title': 'Record a payment for {number}',
  'invoices.record.method': 'Method',
  'invoices.record.reference': 'Reference',
  'invoices.record.referenceHelp': 'Receipt number or bank transfer reference',
  'invoices.record.amount': 'Amount: {amount} (the invoice total)',
  'invoices.record.submit': 'Record payment',
  'invoices.record.method.cash': 'Cash',
  'invoices.record.method.bank_transfer': 'Bank transfer',
  'invoices.record.referenceRequired': 'Enter the reference',

  'invoices.pay.chooseTitle': 'How would you like to pay?',
  'invoices.pay.continue': 'Continue to payment',
  'invoices.pay.noGateway': 'No payment method is available right now. Please contact us.',
  'invoices.pay.noCheckout':
    'Your payment was registered as pending. Please follow the payment instructions you were given.',
  'invoices.pay.default': 'default',

  'invoices.result.paid': 'Payment received. Thank you!',
  'invoices.result.paidText': 'The invoice is now marked as paid.',
  'invoices.result.declined': 'The payment did not go through.',
  'invoices.result.declinedText': 'No money was taken. You can try again.',
  'invoices.result.pending': 'Your payment is being processed.',
  'invoices.result.pendingText': 'This page shows the invoice as paid once the payment is confirmed.',

  'invoices.public.noIdText':
    'Open the invoice link from the e-mail we sent you, or find the invoice under Subscriptions → Order history after signing in. You can also paste the invoice link or its id here.',
  'invoices.public.pasteLabel': 'Invoice link or id',
  'invoices.public.pastePlaceholder': 'https://…/invoice/… or the invoice id',
  'invoices.public.open': 'Open invoice',
  'invoices.public.invalidId': 'That does not look like an invoice link or id.',
  'invoices.public.notFoundTitle': 'Invoice not found',
  'invoices.public.notFoundText': 'No invoice has this link. Check that you copied the whole link from the e-mail.',
  'invoices.public.loadError': 'The invoice could not be loaded.',
  'invoices.public.retry': 'Try again',
  'invoices.public.home': 'Home',
  'invoices.public.myAccount': 'My account',
  'invoices.public.invoice': 'Invoice {number}',

  'invoices.show.payments': 'Payments',
  'invoices.payments.date': 'Date',
  'invoices.payments.empty': 'No payment has been made or started for this invoice.',
  'invoices.payments.status.pending': 'Pending',
  'invoices.payments.status.paid': 'Paid',
  'invoices.payments.status.failed': 'Failed',
  'invoices.payments.status.refunded': 'Refunded',
  'invoices.payments.status.expired': 'Expired',
  'invoices.payments.refund': 'Refund',
  'invoices.payments.refundConfirm': 'Refund {amount} to the payer?',
  'invoices.payments.refundPaidNote':
    'The money goes back through the provider and the invoice becomes refunded. The subscription is left as it is.',
  'invoices.payments.refundOwedNote':
    'This payment was taken but never counted: the money goes back, the invoice stays as it is.',
  'invoices.toast.refunded': 'Payment refunded successfully', // not in spec

  'invoices.billingRun.button': 'Run billing now',
  'invoices.billingRun.confirm':
    "Run today's billing now? It issues renewal invoices, marks overdue ones and suspends or expires subscriptions; it runs once a day.",
  'invoices.billingRun.done': 'Billing run completed',
  'invoices.billingRun.alreadyRan': 'Billing already ran today; nothing was done again',
  'invoices.billingRun.summary':
    '{renewals} renewal invoices, {overdue} overdue, {suspended} suspended, {expired} expired',

  'invoices.my.empty': 'You have no invoices yet.',

  'errors.invoices.recordPayment': 'Failed to record payment', // not in spec
  'errors.invoices.billingRun': 'Failed to run billing', // not in spec
  'errors.invoices.payments': 'Failed to fetch payments', // not in spec
  'errors.invoices.refund': 'Failed to refund payment', // not in spec
};
