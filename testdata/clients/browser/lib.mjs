// What the browser tests share: Debian's Chromium launched as this
// machine needs it, every request recorded and anything not for the
// server refused (the page must ask for nothing elsewhere), errors on the
// page collected, and calls of the query API.
import { chromium } from 'playwright-core';

export const base = process.env.STACKSIM_ENDPOINT;
if (!base) throw new Error('STACKSIM_ENDPOINT is not set: the Go test (cmd/stacksim/serve_webview_test.go) runs this');
export const origin = new URL(base).origin;
export const artefacts = process.env.STACKSIM_ARTEFACTS || '.';

export async function launch(viewport = { width: 1400, height: 1000 }) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
  const context = await browser.newContext({ viewport });
  const seen = { requests: [], outside: [], errors: [] };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    seen.requests.push(url);
    if (!url.startsWith('data:') && new URL(url).origin !== origin) {
      seen.outside.push(url);
      return route.abort('blockedbyclient');
    }
    return route.continue();
  });
  context.on('page', (page) => watch(page, seen));
  return { browser, context, seen };
}

export function watch(page, seen) {
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => seen.errors.push(`pageerror: ${e.message}`));
}

// call makes a call of the query API (no signature: stacksim takes any).
export async function call(action, params = {}) {
  const body = new URLSearchParams({ Action: action, Version: '2010-05-15', ...params });
  const r = await fetch(base + '/', { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  const text = await r.text();
  if (!r.ok) throw new Error(`${action}: HTTP ${r.status}: ${text}`);
  return text;
}

export function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
}

// attr reads an attribute of every element a selector finds.
export async function attrs(page, selector, name) {
  return page.$$eval(selector, (els, n) => els.map((e) => e.getAttribute(n)), name);
}
