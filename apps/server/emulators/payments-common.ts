import type { ServerResponse } from 'node:http';

// TEST-ONLY helpers shared by the payment provider emulators.

export { readBody } from './emulator-kit';

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function redirect(res: ServerResponse, to: string) {
  res.writeHead(303, { location: to });
  res.end();
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The provider's hosted payment page, reduced to the amount and two buttons. */
export function checkoutPage(res: ServerResponse, title: string, amount: string, action: string) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body>
<h1>${escapeHtml(title)}</h1><p data-testid="amount">${escapeHtml(amount)}</p>
<form method="post" action="${escapeHtml(action)}/pay"><button type="submit" id="pay">Pay</button></form>
<form method="post" action="${escapeHtml(action)}/cancel"><button type="submit" id="cancel">Cancel</button></form>
</body></html>`);
}
