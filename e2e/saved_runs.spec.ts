// Saved runs in a real Chromium, micro preset: two tabs of one browser each keep their own run, a damaged
// record is named and never offered, and a run whose GPU device is lost is offered for resuming at once.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import {
  FAST,
  SCREENSHOTS,
  curvePoints,
  engineReady,
  openPlayground,
  openTab,
  putSavedRecord,
  savedRecords,
} from './page.ts';

async function stepOnce(page: Page): Promise<void> {
  await page.getByTestId('step-update').click();
  await engineReady(page);
}

async function offers(page: Page): Promise<[string | null, string | null][]> {
  return page
    .getByTestId('resume-offer')
    .evaluateAll((els) => els.map((el) => [el.getAttribute('data-run-id'), el.getAttribute('data-updates')]));
}

describe('saved runs', () => {
  const chromium = chromiumForSuite();

  it("keeps each tab's run: a second tab is offered the first tab's run and never writes over it", async () => {
    const tabA = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(tabA.page);
    await stepOnce(tabA.page);
    await expect.poll(() => tabA.page.getByTestId('autosave').textContent()).toContain('last saved at update 1');
    const [idA] = Object.keys(await savedRecords(tabA.page));

    const tabB = await openTab(tabA.context, formatHash({ ...FAST, seed: 2 }));
    await engineReady(tabB.page);
    await expect.poll(() => offers(tabB.page)).toEqual([[idA, '1']]);
    await tabB.page.screenshot({ path: `${SCREENSHOTS}/e2e-second-tab-offer.png`, fullPage: true });
    await stepOnce(tabB.page);
    await stepOnce(tabB.page);
    await expect.poll(async () => Object.keys(await savedRecords(tabB.page)).length).toBe(2);
    const records = await savedRecords(tabB.page);
    expect(records[idA].updates).toBe(1);
    expect(
      Object.values(records)
        .map((r) => r.updates)
        .sort(),
    ).toEqual([1, 2]);
    // Tab A trains on, in its own record; it is offered tab B's run.
    await stepOnce(tabA.page);
    await expect.poll(async () => (await savedRecords(tabA.page))[idA].updates).toBe(2);
    expect(Object.keys(await savedRecords(tabA.page))).toHaveLength(2);

    // Resumed in tab B while tab A still trains it, the run goes on as a copy under a new id.
    await tabB.page.getByTestId('resume').click();
    await expect
      .poll(() => tabB.page.getByTestId('backend').textContent())
      .toContain('a copy of the run saved at update');
    await engineReady(tabB.page);
    await stepOnce(tabB.page);
    await expect.poll(async () => Object.keys(await savedRecords(tabB.page)).length).toBe(3);
    expect((await savedRecords(tabB.page))[idA].updates).toBe(2);
    expect(tabA.problems).toEqual([]);
    expect(tabB.problems).toEqual([]);
  });

  it('names a damaged saved record, never offers it, and lets it be discarded', async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    const base = { settings: FAST, updates: 1, savedAt: Date.now(), curves: [], runs: [] };
    await putSavedRecord(page, 'null-curve', { ...base, id: 'null-curve', curves: [null] });
    await putSavedRecord(page, 'huge', { ...base, id: 'huge', updates: 1e308 });
    await putSavedRecord(page, 'old-clip', { ...base, id: 'old-clip', settings: { ...FAST, clip: 2 } });
    await putSavedRecord(page, 'no-fields', { id: 'no-fields' });
    await page.reload();
    await engineReady(page);
    const refused = page.getByTestId('saved-refused');
    await expect.poll(() => refused.count()).toBe(4);
    const lines = Object.fromEntries(
      await refused.evaluateAll((els) => els.map((el) => [el.getAttribute('data-run-id'), el.textContent ?? ''])),
    );
    expect(lines['null-curve']).toContain("curves[0] is null, not an update's metrics");
    expect(lines.huge).toContain('updates is 1e+308, not a whole number');
    expect(lines['old-clip']).toContain('settings: clip=2 is outside [0, 1)');
    expect(lines['no-fields']).toContain('settings is undefined, not an object');
    expect(await page.getByTestId('resume-offer').count()).toBe(0);
    await page.getByTestId('saved-runs').screenshot({ path: `${SCREENSHOTS}/e2e-damaged-saved-runs.png` });
    await page.locator('[data-testid="saved-refused"][data-run-id="old-clip"] [data-testid="discard-saved"]').click();
    await expect.poll(() => refused.count()).toBe(3);
    expect(Object.keys(await savedRecords(page)).sort()).toEqual(['huge', 'no-fields', 'null-curve']);
    await stepOnce(page);
    await expect.poll(() => curvePoints(page)).toBe(1);
    expect(problems).toEqual([]);
  });

  it('offers the last checkpoint at once when the GPU device is lost; Reset and a step leave it alone', async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash({ ...FAST, backend: 'webgpu' }));
    await engineReady(page);
    expect(await page.getByTestId('backend-kind').textContent()).toBe('WebGPU');
    await stepOnce(page);
    await expect.poll(() => page.getByTestId('autosave').textContent()).toContain('last saved at update 1');
    const [lostId] = Object.keys(await savedRecords(page));

    // The training worker's device is destroyed at its next command encoder: what a driver reset does to it.
    const worker = page.workers().find((w) => /engine\.worker/.test(w.url()));
    expect(worker).toBeDefined();
    await worker!.evaluate(() => {
      const original = GPUDevice.prototype.createCommandEncoder;
      GPUDevice.prototype.createCommandEncoder = function (this: GPUDevice, descriptor?: GPUCommandEncoderDescriptor) {
        GPUDevice.prototype.createCommandEncoder = original;
        this.destroy();
        return original.call(this, descriptor);
      };
    });
    await stepOnce(page);
    await expect
      .poll(() => page.getByTestId('run-errors').textContent())
      .toMatch(/resume from the last checkpoint.*Its last checkpoint \(update 1\) is offered/);
    const offer = page.locator(`[data-testid="resume-offer"][data-run-id="${lostId}"]`);
    await offer.waitFor();
    expect(await offer.textContent()).toContain('stopped by the loss of the GPU device');
    await page.screenshot({ path: `${SCREENSHOTS}/e2e-device-lost-offer.png`, fullPage: true });

    // A new run on a new device, under a new id: its saves leave the lost run's record as it was.
    await page.getByTestId('reset').click();
    await engineReady(page);
    await stepOnce(page);
    await expect.poll(async () => Object.keys(await savedRecords(page)).length).toBe(2);
    expect((await savedRecords(page))[lostId].updates).toBe(1);
    await expect.poll(() => offers(page)).toEqual([[lostId, '1']]);

    await page.getByTestId('resume').click();
    await expect
      .poll(() => page.getByTestId('backend').textContent())
      .toContain('Started from the run saved at update 1');
    await engineReady(page);
    await stepOnce(page);
    await expect.poll(() => curvePoints(page)).toBe(2);
    await expect.poll(async () => (await savedRecords(page))[lostId].updates).toBe(2);
    expect(problems).toEqual([]);
  });
});
