// The short pages the loopback listener shows in the browser after the redirect.

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface CallbackPage {
  status: number;
  html: string;
}

function page(status: number, title: string, lines: string[]): CallbackPage {
  const body = lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
  return {
    status,
    html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`,
  };
}

export const callbackPages = {
  signedIn: (who: string) => page(200, 'Signed in', [`platform is signed in${who ? ` as ${who}` : ''}.`, 'You can close this tab and return to the terminal.']),
  failed: (message: string) => page(400, 'Sign-in failed', [message, 'Return to the terminal for details.']),
  denied: () => page(200, 'Access denied', ['You denied access; nothing was stored.', 'You can close this tab.']),
  wrongState: () =>
    page(400, 'Sign-in rejected', [
      'This response does not belong to the sign-in the terminal is waiting for (the state does not match), so it was rejected.',
      'Start again from the link the terminal printed.',
    ]),
  alreadyDone: () => page(409, 'Already handled', ['This sign-in was already handled; this request was ignored.', 'You can close this tab.']),
  notFound: () => page(404, 'Not found', ['The sign-in listener only answers /callback.']),
};
