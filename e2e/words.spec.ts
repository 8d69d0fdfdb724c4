// What the page writes, micro preset: a world by its name and arms in one case in the race's words, the settings'
// choices shown whole at a laptop's width, the skills table numbering games as the rest of the page does, a skill's
// form told apart from its truth, and the page's link with every setting copied in one click.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHOICE_SPECS, defaultSettings, formatHash, parseHash } from '../src/rl/page_settings.ts';
import { FAST, SCREENSHOTS, engineReady, newContext, openPlayground, openTab } from './page.ts';
import { chromiumForSuite } from './suite_browser.ts';

/**
 * The width a select takes on screen, and the width it needs to show its chosen label whole: that of a select
 * holding that option alone at its own content's width, with the same rules.
 */
async function selectWidths(page: Page, setting: string): Promise<{ label: string; shown: number; needed: number }> {
  return page.locator(`select[data-setting="${setting}"]`).evaluate((el) => {
    const select = el as HTMLSelectElement;
    const alone = document.createElement('select');
    alone.className = select.className;
    alone.style.cssText = 'position: absolute; visibility: hidden; width: max-content; max-width: none';
    const option = document.createElement('option');
    option.text = select.selectedOptions[0].text;
    alone.append(option);
    select.parentElement!.append(alone);
    const needed = alone.getBoundingClientRect().width;
    alone.remove();
    return { label: option.text, shown: select.getBoundingClientRect().width, needed };
  });
}

describe('words', () => {
  const chromium = chromiumForSuite();

  it('shows every World and preset label whole at 1440x900', async () => {
    const { page, problems, context } = await openPlayground(chromium.browser, formatHash(FAST), {
      width: 1440,
      height: 900,
    });
    for (const setting of ['env', 'preset'] as const) {
      for (const value of CHOICE_SPECS[setting].options) {
        await page.locator(`select[data-setting="${setting}"]`).selectOption(value);
        const { label, shown, needed } = await selectWidths(page, setting);
        expect(shown, `${setting}=${value}: "${label}"`).toBeGreaterThanOrEqual(needed);
      }
      await page.getByTestId('setting-choices').screenshot({ path: `${SCREENSHOTS}/e2e-words-${setting}.png` });
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it("names the race's world by its name and both arms in capitals, and says the finding is the recorded arms'", async () => {
    const searchqa = { ...defaultSettings('micro', 'searchqa'), evalEvery: 1, evalEpisodes: 2 };
    const { page, problems, context } = await openPlayground(chromium.browser, formatHash(searchqa));
    const hint = (await page.getByTestId('race-hint').textContent()) ?? '';
    expect(hint).toMatch(/^Trains GRPO and SEED side by side in the search-QA world, /);
    // The world's id and the arms' ids are not words of the page; "seed 1" is the run's seed.
    expect(hint).not.toMatch(/searchqa|\bgrpo\b|\bseed\b(?! \d)/);
    // The finding is the recorded benchmark's, its arms' course from the warm start beside it, not the live run's.
    const finding = page.getByTestId('finding');
    await expect.poll(() => finding.getAttribute('data-state')).toBe('ready');
    expect(await finding.textContent()).toMatch(
      /^The recorded finding: In the search-QA world’s recorded benchmark \(\d+ seeds, \w+\), SEED − GRPO on eval-unseen is .+; GRPO moved [+−]\d+\.\d and SEED [+−]\d+\.\d points from the warm start\.$/,
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it("numbers the skills table's games as the page does, and says well formed apart from true", async () => {
    const { page, problems, context } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    // The first rollout runs by itself once the run has started.
    await page.locator('[data-testid="stages"][data-stage="rollout"]').waitFor();
    for (const stage of ['rewards', 'skills']) {
      await page.getByTestId('stage-next').click();
      await page.locator(`[data-testid="stages"][data-stage="${stage}"]`).waitFor();
      await engineReady(page);
    }
    expect(await page.locator('#stages-title small').textContent()).toMatch(/^update 1 \(SEED\)$/);
    const table = page.locator('[data-testid="stages"] [data-testid="stage-table"]');
    const headers = await table.locator('thead th').allTextContents();
    expect(headers).toContain('Well formed');
    // The household checks where a skill says the task's object was: its truth has a column of its own.
    expect(headers).toContain('True of its game');
    const games = await table.locator('tbody tr td:first-child').allTextContents();
    const picks = await page.getByTestId('trajectory-pick').allTextContents();
    expect(games.length).toBe(FAST.groupSize * FAST.tasksPerUpdate);
    expect(games.map((g) => `task ${g}`)).toEqual(picks.map((p) => /task \d+\.\d+/.exec(p)?.[0]));
    const truthColumn = headers.indexOf('True of its game') + 1;
    const truths = await table
      .locator(`tbody tr td:nth-child(${truthColumn})`)
      .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-truth')));

    const pick = page.getByTestId('trajectory-pick');
    for (let i = 0; i < (await pick.count()); i++) {
      await pick.nth(i).click();
      const card = page.locator(
        `[data-testid="skill-card"][data-index="${await pick.nth(i).getAttribute('data-index')}"]`,
      );
      await card.waitFor();
      const valid = card.getByTestId('skill-valid');
      const text = (await valid.textContent()) ?? '';
      if ((await valid.getAttribute('data-valid')) === 'true') expect(text).toBe('well formed');
      else expect(text).toMatch(/^not used: /);
      expect(text).not.toMatch(/\bvalid\b/);
      expect(await card.getByTestId('skill-truth').getAttribute('data-truth')).toBe(truths[i]);
      expect(await card.getByTestId('skill-truth').textContent()).toMatch(
        /^(true of its game|false about its game|partly false about its game|claims nothing its world checks)$/,
      );
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('copies the link that opens the page with every setting, and says so', async () => {
    const context = await newContext(chromium.browser, { viewport: { width: 1400, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { page, problems } = await openTab(context, formatHash({ ...FAST, seed: 7 }));
    const status = page.getByTestId('copy-link-status');
    const copied = async () => {
      await page.getByTestId('copy-link').click();
      await page.locator('[data-testid="copy-link-status"][data-state="copied"]').waitFor();
      return page.evaluate(() => navigator.clipboard.readText());
    };
    const first = await copied();
    expect(first).toBe(page.url());
    const parsed = parseHash(new URL(first).hash);
    expect(parsed.settings).toEqual({ ...FAST, seed: 7 });
    expect(parsed.notices).toEqual([]);
    expect(await status.textContent()).toContain('Copied');

    // A setting changed since: the word "copied" goes, and the next copy carries the change.
    const seed = page.locator('input[data-setting="seed"]');
    await seed.fill('9');
    await seed.press('Enter');
    await page.locator('[data-testid="copy-link-status"][data-state="idle"]').waitFor({ state: 'attached' });
    const second = await copied();
    expect(parseHash(new URL(second).hash).settings).toEqual({ ...FAST, seed: 9 });
    expect(problems).toEqual([]);
    await context.close();
  });
});
