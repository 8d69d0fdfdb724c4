// The search-QA world on the page, micro preset: the World setting offers it, a link that names it opens a
// search-QA run, which says it starts from seeded random weights (no warm start ships for its micro preset); its episodes show
// the question on the task line and each results page as its numbered passages ("Doc 1: ..."), its actions as
// Search-R1 writes them; one update trains, with the world's answer F1 beside success; the world survives a reload
// (the URL).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { defaultSettings, formatHash, parseHash, type Settings } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import {
  FAST,
  SCREENSHOTS,
  commandTexts,
  curvePoints,
  engineReady,
  firstRollout,
  foreignRequests,
  readTranscripts,
} from './page.ts';
import { householdIndex, openWithIndex } from './recorded_index.ts';
import { ENVIRONMENT_NAMES } from '../src/worlds/names.ts';

/** The world's micro defaults (an episode of at most 6 steps, one sequence), cut to FAST's quick updates. */
const QA: Settings = {
  ...defaultSettings('micro', 'searchqa'),
  groupSize: FAST.groupSize,
  tasksPerUpdate: FAST.tasksPerUpdate,
  evalEvery: 1,
  evalEpisodes: 2,
  checkpointEvery: 1,
};
const HEADLINE = '[data-testid="chart-headline-unseen"]';
/** HotpotQA's three forms of question, as the world asks them. */
const QUESTION =
  /^(In which (year|country) (was|is) .+|What is the capital of .+|Who (founded|was born first).+|Which was founded first.+)\?$/;

/** What the page's transcripts show of the world, over every trajectory of the update on screen. */
function readQaEpisodes(page: Page) {
  return readTranscripts(page, async (transcript) => ({
    question: (await transcript.getByTestId('transcript-goal').textContent()) ?? '',
    pages: await transcript.getByTestId('qa-page').evaluateAll((els) => els.map((el) => el.getAttribute('data-kind'))),
    passages: await transcript.getByTestId('qa-passage').allTextContents(),
    actions: await commandTexts(transcript),
  }));
}

describe('the search-QA world', () => {
  const chromium = chromiumForSuite();

  it('opens from a link, plays an episode shown readably, trains an update, and keeps the world over a reload', async () => {
    const opened = await openWithIndex(chromium.browser, formatHash(QA), householdIndex());
    const { page, problems } = opened;
    await firstRollout(page);
    await engineReady(page);
    const world = page.locator('select[data-setting="env"]');
    expect(await world.inputValue()).toBe('searchqa');
    expect(
      await world.locator('option').evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value)),
    ).toEqual([...ENVIRONMENT_NAMES]);
    expect(await page.getByTestId('tagline-world').textContent()).toBe('questions answered by search');
    // No warm start ships for the world's micro preset: the page says what the run starts from, names the preset
    // that starts from a trained policy, and fetched none.
    const notice = page.getByTestId('random-start');
    expect(await notice.getAttribute('data-env')).toBe('searchqa');
    expect(await notice.textContent()).toContain(
      `No warm start ships for the search-QA world's micro preset: this run starts from a seeded random initialisation, seed ${QA.seed}`,
    );
    expect(await notice.textContent()).toContain('The search-QA world’s tiny preset starts from a trained policy.');
    expect(await page.getByTestId('initial-source').textContent()).toBe(
      `a seeded random initialisation, seed ${QA.seed} (no warm start ships for the search-QA world's micro preset)`,
    );
    expect(opened.requests.some((url) => url.includes('warmstart-'))).toBe(false);

    const episodes = await readQaEpisodes(page);
    expect(episodes.length).toBe(QA.groupSize * QA.tasksPerUpdate);
    for (const e of episodes) {
      // The question is the task line; the opening page, which only repeats it, says so.
      expect(e.question).toMatch(QUESTION);
      expect(e.pages[0]).toBe('question');
      for (const a of e.actions) expect(a).not.toMatch(/ \[|\[ | \]/);
      // A results page is its passages one a line, numbered from 1 as Search-R1 numbers its documents.
      for (const p of e.passages) expect(p).toMatch(/^Doc [1-3]: \S.*\.$/);
    }
    const passages = episodes.flatMap((e) => e.passages);
    expect(passages.filter((p) => p.startsWith('Doc 1: ')).length).toBeGreaterThan(0);
    expect(episodes.flatMap((e) => e.actions).filter((a) => /^search\[[^\]]+\]$/.test(a)).length).toBeGreaterThan(0);
    await page.getByTestId('episodes').screenshot({ path: `${SCREENSHOTS}/e2e-searchqa-episode.png` });

    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBe(1);
    await expect.poll(() => page.getByTestId('live-update').getAttribute('data-value')).toBe('1');
    await expect.poll(async () => Number(await page.locator(HEADLINE).getAttribute('data-live-points'))).toBe(2);
    // No benchmark of the world is recorded: none is drawn, the household's least of all.
    const finding = page.getByTestId('finding');
    await expect.poll(() => finding.getAttribute('data-state')).toBe('none');
    expect(await finding.getAttribute('data-world')).toBe('searchqa');
    expect(await page.getByTestId('recorded-message').textContent()).toBe(
      'No recorded run of the search-QA world: runs/index.json lists none.',
    );
    expect(await page.locator(HEADLINE).getAttribute('data-recorded-series')).toBe('0');
    // HotpotQA's answer F1 beside success: its chart, and each split's number after the evaluation, in [0, 1].
    expect(await page.getByTestId('chart-score').count()).toBe(1);
    for (const split of ['seen', 'unseen']) {
      const score = Number(await page.getByTestId(`live-score-${split}`).getAttribute('data-value'));
      expect(score).toBeGreaterThanOrEqual(
        Number(await page.getByTestId(`live-eval-${split}`).getAttribute('data-value')),
      );
      expect(score).toBeLessThanOrEqual(1);
    }
    await page.screenshot({ path: `${SCREENSHOTS}/e2e-searchqa-trained.png`, fullPage: true });

    await page.reload();
    await firstRollout(page);
    await engineReady(page);
    expect(parseHash(await page.evaluate(() => location.hash)).settings).toEqual(QA);
    expect(await world.inputValue()).toBe('searchqa');
    await page.getByTestId('trajectory-pick').first().click();
    expect(
      await page.locator('[data-testid="transcript"] [data-testid="transcript-goal"]').first().textContent(),
    ).toMatch(QUESTION);
    expect(
      await page.locator('[data-testid="transcript"] [data-testid="qa-page"]').first().getAttribute('data-kind'),
    ).toBe('question');

    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
