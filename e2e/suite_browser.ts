// One headless Chromium per describe block: launched before its tests (with the screenshot folder made),
// closed after them, so a spec only says which suite needs a browser.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../src/cli/browser/chromium.ts';
import { SCREENSHOTS } from './page.ts';

/** Call inside a describe block; read `.browser` inside its tests. */
export function chromiumForSuite(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser(): Browser {
      if (!browser)
        throw new Error('Chromium is not running: chromiumForSuite() must be called inside a describe block');
      return browser;
    },
  };
}
