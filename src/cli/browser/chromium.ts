// The one way the e2e specs and the page benchmarks start a browser: Debian's Chromium (never a downloaded
// one), headless, with WebGPU on SwiftShader.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--enable-unsafe-webgpu',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** webgpu: false starts Chromium as a user without the flag would have it, WebGPU off (Linux). */
export async function launchChromium(options: { webgpu?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} not found: install Debian's chromium package (apt-get install chromium)`);
  }
  const args = options.webgpu === false ? CHROMIUM_ARGS.filter((a) => a !== '--enable-unsafe-webgpu') : CHROMIUM_ARGS;
  return chromium.launch({ executablePath: CHROMIUM_PATH, args, headless: true });
}
