// Headless Chromium (Debian's `chromium` package) driven by playwright-core, never a downloaded
// browser. Each test file gets one browser; every page it opens records its errors so a test can
// assert the page ran cleanly, and saves screenshots under test-results/ (kept as CI artifacts).
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { atEveryFileEnd } from "./file-scope.js";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
const RESULTS = path.resolve(import.meta.dirname, "../../test-results");

let browser: Browser | undefined;
atEveryFileEnd(async () => {
  await browser?.close();
  browser = undefined;
});

export async function launchBrowser(): Promise<Browser> {
  // playwright-core gives each launch a fresh temporary profile (its own --user-data-dir).
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return browser;
}

export interface OpenPage {
  page: Page;
  /** Uncaught exceptions and console errors seen so far. */
  errors: string[];
}

export async function openPage(url: string): Promise<OpenPage> {
  const page = await (await launchBrowser()).newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  return { page, errors };
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS, `${name}.png`), fullPage: true });
}

/** The timeline's events as the page shows them: kind, seq and visible text. */
export function timelineEvents(page: Page) {
  return page.$$eval("[data-testid=event]", (elements) =>
    elements.map((element) => ({
      type: (element as HTMLElement).dataset.eventType,
      seq: Number((element as HTMLElement).dataset.seq),
      text: element.querySelector(".event-body")?.textContent?.trim() ?? "",
    })),
  );
}
