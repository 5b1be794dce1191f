/** Escapes text for an HTML attribute or element. */
const html = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Only local admin paths may be the target after logging in (no open redirect). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/admin\/[A-Za-z0-9/_.-]*$/.test(next) ? next : '/admin/queues';
}

/** The token form a browser sees at /admin/* before logging in. */
export function loginPage(options: { next: string; configured: boolean; failed: boolean }): string {
  const note = !options.configured
    ? '<p role="alert">No admin token is configured: set ADMIN_TOKEN (read-only) or ADMIN_WRITE_TOKEN on the server.</p>'
    : options.failed
      ? '<p role="alert">That token is not valid.</p>'
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dialog-relay admin</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 28rem; margin: 4rem auto">
<h1>dialog-relay admin</h1>
${note}
<form method="post" action="/admin/login">
<input type="hidden" name="next" value="${html(safeNext(options.next))}">
<label>Admin token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Log in</button>
</form>
<p>ADMIN_TOKEN opens the queue dashboard read-only; ADMIN_WRITE_TOKEN also allows its actions.</p>
</body></html>`;
}
