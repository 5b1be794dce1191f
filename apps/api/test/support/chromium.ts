import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it when missing); no browser is downloaded. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Chromium without its own traffic (updates, safe browsing, sync, metrics, translation): tests stay on loopback. */
const QUIET_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--no-first-run',
  '--no-pings',
  '--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: QUIET_ARGS });
}

/**
 * Records every request the context's pages make and aborts any to another origin than `origin`
 * (answered here, it never leaves the machine). `outside()` lists the requests that were not for
 * 127.0.0.1: a test asserts it is empty.
 */
export async function keepOnLoopback(context: BrowserContext, origin: string): Promise<{ requested: string[]; outside: () => string[] }> {
  const requested: string[] = [];
  context.on('request', (request) => void requested.push(request.url()));
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort(),
  );
  return {
    requested,
    outside: () => requested.filter((url) => !url.startsWith('data:') && new URL(url).hostname !== '127.0.0.1'),
  };
}

/** The errors `page` reports from now on: console errors and uncaught page errors, as text. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => void problems.push(error.message));
  return problems;
}

/** What a browser test ends with: the pages asked for something, nothing left loopback, and no Content Security Policy violation was reported. */
export function expectLoopbackOnly(traffic: { requested: string[]; outside: () => string[] }, problems: string[]): void {
  expect(traffic.requested.length).to.be.greaterThan(0);
  expect(traffic.outside(), 'requests that left loopback').to.deep.equal([]);
  expect(
    problems.filter((p) => /Content Security Policy|Refused to/i.test(p)),
    'CSP violations',
  ).to.deep.equal([]);
}
