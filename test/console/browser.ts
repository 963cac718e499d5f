import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs it with apt); no browser is ever downloaded. */
export const CHROMIUM = process.env['PBX_CHROMIUM'] ?? '/usr/bin/chromium';

/**
 * Why the browser tests cannot run here, or `undefined` when they can. Where `.ci/run` installed
 * Chromium it sets PBX_REQUIRE_CHROMIUM=1: a missing browser then fails instead of skipping.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env['PBX_REQUIRE_CHROMIUM'] === '1') throw new Error(`PBX_REQUIRE_CHROMIUM=1 but ${reason}`);
  return reason;
}

/**
 * Flags for a headless Chromium as root on a closed network: no sandbox (root), and none of the
 * background connections (component updates, sync, QUIC) that would be refused and slow it down.
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** One Chromium per test file, with a fresh profile folder removed on close. */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'pbx-console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1360, height: 900 },
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical violations axe-core finds on the page as it is now (WCAG 2.1 A/AA and
 * best practices), as one line each. axe is evaluated through the debugging protocol, so the
 * page's own content-security policy stays in force.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(await axeSource);
  const results = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe;
    return (await axe.run()) as {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    };
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`,
    );
}

/** Where the screenshots go: test artifacts, never committed (reports/ is ignored). */
export const SCREENSHOTS = join(process.cwd(), 'reports', 'console');

/** The whole page as `<name>.png`, and what fits the window as `<name>-window.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-window.png`) });
  return path;
}
