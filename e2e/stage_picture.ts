// Checks of the step-through's picture and token tables, shared by the specs that step through an update.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export const STAGES = ['rollout', 'rewards', 'skills', 'rescore', 'loss', 'optimizer'] as const;

/** The picture shows the six stages in order, `stage` alone lit, the stages before it done. */
export async function expectPictureAt(page: Page, stage: (typeof STAGES)[number]): Promise<void> {
  const boxes = await page.locator('[data-testid="stage-pipeline"] [data-testid="pipeline-box"]').evaluateAll((els) =>
    els.map((el) => ({
      stage: el.getAttribute('data-stage'),
      lit: el.getAttribute('data-lit'),
      current: el.getAttribute('aria-current'),
      done: el.classList.contains('done'),
    })),
  );
  expect(boxes.map((b) => b.stage)).toEqual([...STAGES]);
  expect(boxes.filter((b) => b.lit === 'true').map((b) => b.stage)).toEqual([stage]);
  expect(boxes.filter((b) => b.current === 'step').map((b) => b.stage)).toEqual([stage]);
  const at = STAGES.indexOf(stage);
  expect(boxes.map((b) => b.done)).toEqual(STAGES.map((_, i) => i < at));
}

/**
 * The example token is named in the picture's caption with what the stage did to it; the stage's table marks
 * its trajectory's row (its group's at stage 2), or at stages 4 and 5 its own row, a decision, with the same
 * text marked. The optimizer's table lists parameters: nothing to mark there.
 */
export async function expectExampleMarked(page: Page, stage: (typeof STAGES)[number]): Promise<void> {
  const text = (await page.getByTestId('example-token').textContent()) ?? '';
  expect(text.length).toBeGreaterThan(0);
  expect(await page.getByTestId('example-at-stage').textContent()).toMatch(/\S/);
  const rows = page.locator('[data-testid="stages"] [data-testid="stage-table"] tbody tr[data-example="true"]');
  expect(await rows.count()).toBe(stage === 'optimizer' ? 0 : 1);
  if (stage !== 'rescore' && stage !== 'loss') return;
  expect(await rows.getAttribute('data-forced')).toBe('false');
  expect(await rows.locator('mark').textContent()).toBe(text);
}

/** Which rows of the stage's token table are forced tokens ('true') or decisions ('false'). */
function tokenRows(page: Page): Promise<(string | null)[]> {
  return page
    .locator('[data-testid="stages"] [data-testid="stage-table"] tbody tr')
    .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-forced')));
}

/**
 * Forced tokens are hidden until the toggle shows them, all N of them; at re-scoring every number of a forced
 * row is 0 (the command trie allowed the token alone: probability 1 under every context).
 */
export async function expectForcedToggle(page: Page, allZero: boolean): Promise<void> {
  const toggle = page.getByTestId('forced-toggle');
  const forced = Number(await toggle.getAttribute('data-forced'));
  expect(forced).toBeGreaterThan(0);
  expect(await toggle.getAttribute('aria-pressed')).toBe('false');
  expect(await toggle.textContent()).toBe(`Show forced tokens (${forced})`);
  const hidden = await tokenRows(page);
  expect(hidden.length).toBeGreaterThan(0);
  expect(hidden.every((f) => f === 'false')).toBe(true);

  await toggle.click();
  expect(await toggle.getAttribute('aria-pressed')).toBe('true');
  const shown = await tokenRows(page);
  expect(shown.filter((f) => f === 'true')).toHaveLength(forced);
  expect(shown).toHaveLength(hidden.length + forced);
  if (allZero) {
    // Every number after the step column: the log-probs.
    const logProbs = await page
      .locator('[data-testid="stages"] [data-testid="stage-table"] tbody tr[data-forced="true"]')
      .evaluateAll((trs) =>
        trs.flatMap((tr) =>
          Array.from(tr.querySelectorAll('td.num'))
            .slice(1)
            .map((td) => Number(td.textContent)),
        ),
      );
    expect(logProbs.length).toBeGreaterThan(0);
    expect(logProbs.every((x) => Math.abs(x) <= 1e-5)).toBe(true);
  }
  await toggle.click();
  expect(await tokenRows(page)).toEqual(hidden);
}
