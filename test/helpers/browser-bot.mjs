#!/usr/bin/env node
// A stand-in browser for process tests (PLATFORM_BROWSER): opens the sign-in URL given as
// its last argument, allows on the sandbox's consent page, and follows the redirect to the
// CLI's loopback listener, as a person clicking "Allow" would.
const url = process.argv.at(-1);
const page = await fetch(url, { redirect: 'manual' });
let location = page.headers.get('location');
if (!location) {
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  const consent = await fetch(new URL(action, url), {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ request_id: requestId, decision: 'allow' }),
  });
  location = consent.headers.get('location');
}
await fetch(location);
