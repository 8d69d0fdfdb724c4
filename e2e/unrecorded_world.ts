// What the specs of a world with no recorded benchmark and no micro warm start (the shop, the search-QA world)
// check alike: a link that names the world opens a run of it from seeded random weights, one update trains with
// the world's score beside success and no recorded run drawn, and a reload keeps the world. Each spec checks its
// own pages and actions between these.
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { defaultSettings, formatHash, parseHash, type Settings } from '../src/rl/page_settings.ts';
import { factsOf, theWorld } from '../src/worlds/facts.ts';
import type { EnvironmentName } from '../src/worlds/names.ts';
import { curvePoints, engineReady, FAST, firstRollout, type OpenedPage } from './page.ts';
import { householdIndex, openWithIndex } from './recorded_index.ts';

export const HEADLINE = '[data-testid="chart-headline-unseen"]';

/** The world's micro defaults, cut to FAST's quick updates and evaluations; `cut` changes more of them. */
export function quickSettings(world: EnvironmentName, cut: Partial<Settings> = {}): Settings {
  return {
    ...defaultSettings('micro', world),
    groupSize: FAST.groupSize,
    tasksPerUpdate: FAST.tasksPerUpdate,
    evalEvery: 1,
    evalEpisodes: 2,
    checkpointEvery: 1,
    ...cut,
  };
}

/**
 * Opens a link to `settings` with the shipped index's household records alone (the world has none, whatever
 * public/runs/ ships), and checks that the page plays the world from seeded random weights and fetched no warm start.
 */
export async function openUnrecordedWorld(browser: Browser, settings: Settings): Promise<OpenedPage> {
  const world = settings.env;
  const opened = await openWithIndex(browser, formatHash(settings), householdIndex());
  const { page } = opened;
  await firstRollout(page);
  await engineReady(page);
  expect(await page.locator('select[data-setting="env"]').inputValue()).toBe(world);
  expect(await page.getByTestId('tagline-world').textContent()).toBe(factsOf(world).words.tasks);
  const notice = page.getByTestId('random-start');
  expect(await notice.getAttribute('data-env')).toBe(world);
  const preset = `${theWorld(world)}'s micro preset`;
  expect(await notice.textContent()).toContain(
    `No warm start ships for ${preset}: this run starts from a seeded random initialisation, seed ${settings.seed}`,
  );
  expect(await page.getByTestId('initial-source').textContent()).toBe(
    `a seeded random initialisation, seed ${settings.seed} (no warm start ships for ${preset})`,
  );
  expect(opened.requests.some((url) => url.includes('warmstart-'))).toBe(false);
  return opened;
}

/**
 * Trains one update and checks what the page then shows of a world with no recorded benchmark: its finding and
 * panel say so, no recorded series is drawn, and the world's score stands beside success in [0, 1].
 */
export async function trainOneUnrecordedUpdate(page: Page, world: EnvironmentName): Promise<void> {
  await page.getByTestId('step-update').click();
  await engineReady(page);
  await expect.poll(() => curvePoints(page)).toBe(1);
  await expect.poll(() => page.getByTestId('live-update').getAttribute('data-value')).toBe('1');
  await expect.poll(async () => Number(await page.locator(HEADLINE).getAttribute('data-live-points'))).toBe(2);
  const finding = page.getByTestId('finding');
  await expect.poll(() => finding.getAttribute('data-state')).toBe('none');
  expect(await finding.getAttribute('data-world')).toBe(world);
  expect(await page.getByTestId('recorded-message').textContent()).toBe(
    `No recorded run of ${theWorld(world)}: runs/index.json lists none.`,
  );
  expect(await page.locator(HEADLINE).getAttribute('data-recorded-series')).toBe('0');
  expect(await page.getByTestId('chart-score').count()).toBe(factsOf(world).scored ? 1 : 0);
  if (!factsOf(world).scored) return;
  for (const split of ['seen', 'unseen']) {
    const score = Number(await page.getByTestId(`live-score-${split}`).getAttribute('data-value'));
    expect(score).toBeGreaterThanOrEqual(
      Number(await page.getByTestId(`live-eval-${split}`).getAttribute('data-value')),
    );
    expect(score).toBeLessThanOrEqual(1);
  }
}

/** Reloads the page and checks that the link kept the run's settings and its world; the spec then opens a transcript. */
export async function reloadKeepsWorld(page: Page, settings: Settings): Promise<void> {
  await page.reload();
  await firstRollout(page);
  await engineReady(page);
  expect(parseHash(await page.evaluate(() => location.hash)).settings).toEqual(settings);
  expect(await page.locator('select[data-setting="env"]').inputValue()).toBe(settings.env);
  await page.getByTestId('trajectory-pick').first().click();
}
