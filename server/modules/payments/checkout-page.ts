/** The sandbox's hosted checkout page: small, self-contained HTML (no external assets, no scripts). */
import { formatMoney } from '../../../contract/money';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function sandboxCheckoutPage(input: {
  transactionId: string;
  invoiceNumber: string;
  amount: number;
  currency: string;
  status: string;
  company?: string;
}): string {
  const tx = encodeURIComponent(input.transactionId);
  const amount = escapeHtml(formatMoney(input.amount, input.currency, 'en-US'));
  const pending = input.status === 'pending';
  const actions = pending
    ? `<form method="post" action="/api/payments/sandbox/checkout/${tx}/approve"><button type="submit" class="approve" name="approve">Approve</button></form>
      <form method="post" action="/api/payments/sandbox/checkout/${tx}/decline"><button type="submit" class="decline" name="decline">Decline</button></form>`
    : `<p class="done">This payment is ${escapeHtml(input.status)}.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · ${escapeHtml(input.invoiceNumber)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f5f7; margin: 0; display: flex; min-height: 100vh; align-items: center; justify-content: center; }
  main { background: #fff; border-radius: 8px; box-shadow: 0 2px 12px rgba(0,0,0,.08); padding: 2rem; width: min(92vw, 380px); }
  h1 { font-size: 1.1rem; margin: 0 0 .25rem; } .tag { color: #b45309; font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; }
  .amount { font-size: 2rem; font-weight: 600; margin: 1rem 0; } .row { display: flex; gap: .75rem; } form { flex: 1; }
  button { width: 100%; padding: .75rem; border: 0; border-radius: 6px; font-size: 1rem; cursor: pointer; }
  .approve { background: #16a34a; color: #fff; } .decline { background: #e5e7eb; color: #111; }
</style>
</head>
<body>
<main>
  <div class="tag">Sandbox · test mode</div>
  <h1>Invoice <span id="invoice-number">${escapeHtml(input.invoiceNumber)}</span></h1>
  <div class="amount" id="amount">${amount}</div>
  <p>No real money moves. Approve to pay the invoice, or decline.</p>
  <div class="row">${actions}</div>
</main>
</body>
</html>`;
}

export function sandboxNotFoundPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment not found</title></head><body><h1>Payment not found</h1></body></html>`;
}
