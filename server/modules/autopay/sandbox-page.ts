/** The sandbox's hosted "save a card" page (autopay set-up): small, self-contained HTML, no scripts. */
import { SANDBOX_TEST_CARDS } from '../../integrations/payments/sandbox';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function sandboxSetupPage(input: { transactionId: string; status: string }): string {
  const tx = encodeURIComponent(input.transactionId);
  const pending = input.status === 'pending';
  const cards = Object.entries(SANDBOX_TEST_CARDS)
    .map(
      ([key, card]) =>
        `<form method="post" action="/api/payments/sandbox/setup/${tx}/${key}"><button type="submit" name="card" value="${key}">${escapeHtml(card.label)}</button></form>`,
    )
    .join('\n    ');
  const body = pending
    ? `<p>No real card is saved. Choose a test card; it behaves as described when it is charged.</p>
  <div class="cards">
    ${cards}
    <form method="post" action="/api/payments/sandbox/setup/${tx}/cancel"><button type="submit" class="cancel" name="card" value="cancel">Cancel</button></form>
  </div>`
    : `<p class="done">This card set-up is ${escapeHtml(input.status)}.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox · save a card</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f5f7; margin: 0; display: flex; min-height: 100vh; align-items: center; justify-content: center; }
  main { background: #fff; border-radius: 8px; box-shadow: 0 2px 12px rgba(0,0,0,.08); padding: 2rem; width: min(92vw, 420px); box-sizing: border-box; }
  h1 { font-size: 1.1rem; margin: 0 0 .25rem; } .tag { color: #92400e; font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; }
  .cards { display: flex; flex-direction: column; gap: .5rem; }
  button { width: 100%; padding: .75rem; border: 1px solid #d1d5db; background: #fff; color: #111; border-radius: 6px; font-size: 1rem; cursor: pointer; text-align: left; }
  .cancel { background: #e5e7eb; text-align: center; }
</style>
</head>
<body>
<main>
  <div class="tag">Sandbox · test mode</div>
  <h1>Save a card for automatic payment</h1>
  ${body}
</main>
</body>
</html>`;
}
