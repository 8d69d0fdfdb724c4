// The search-QA world on the page, micro preset: the World setting offers it, a link that names it opens a
// search-QA run, which says it starts from seeded random weights (no warm start ships for its micro preset); its episodes show
// the question on the task line and each results page as its numbered passages ("Doc 1: ..."), its actions as
// Search-R1 writes them; one update trains, with the world's answer F1 beside success; the world survives a reload
// (the URL).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumForSuite } from './suite_browser.ts';
import { SCREENSHOTS, commandTexts, foreignRequests, readTranscripts } from './page.ts';
import { openUnrecordedWorld, quickSettings, reloadKeepsWorld, trainOneUnrecordedUpdate } from './unrecorded_world.ts';
import { ENVIRONMENT_NAMES } from '../src/worlds/names.ts';

/** The world's micro defaults (an episode of at most 6 steps, one sequence), cut to FAST's quick updates. */
const QA = quickSettings('searchqa');
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
    const opened = await openUnrecordedWorld(chromium.browser, QA);
    const { page, problems } = opened;
    const world = page.locator('select[data-setting="env"]');
    expect(
      await world.locator('option').evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value)),
    ).toEqual([...ENVIRONMENT_NAMES]);
    // The notice of the seeded start names the preset that starts from a trained policy.
    expect(await page.getByTestId('random-start').textContent()).toContain(
      'The search-QA world’s tiny preset starts from a trained policy.',
    );

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

    // No benchmark of the world is recorded: none is drawn, the household's least of all; HotpotQA's answer F1
    // stands beside success.
    await trainOneUnrecordedUpdate(page, 'searchqa');
    await page.screenshot({ path: `${SCREENSHOTS}/e2e-searchqa-trained.png`, fullPage: true });

    await reloadKeepsWorld(page, QA);
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
