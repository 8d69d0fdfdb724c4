// The per-token export holds what the stage view's table shows, micro preset: every token's text and every
// number of the stage, as `seed loss` input JSON (with notes) and as CSV; after re-scoring (stage 4) the
// log-probs, after the loss (stages 5 and 6) also Delta, the gate and the coefficients.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseLossProblem } from '../src/backend/loss_json.ts';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import { FAST, downloadText, engineReady, openPlayground } from './page.ts';

type Noted = Record<string, number | string>;

async function stageTo(page: Page, stage: string): Promise<void> {
  await page.getByTestId('stage-next').click();
  await page.locator(`[data-testid="stages"][data-stage="${stage}"]`).waitFor();
  await engineReady(page);
}

/** Both exports of the open update's per-token table. */
async function exportTable(page: Page) {
  const json = await downloadText(page, 'export-loss-json');
  const csv = await downloadText(page, 'export-tokens-csv');
  return { json, csv, tokens: JSON.parse(json.text).tokens as Noted[], rows: csv.text.trimEnd().split('\n') };
}

/** The table on screen: its column names and, per row, its cells. */
async function shownTable(page: Page) {
  const table = page.locator('[data-testid="stages"] [data-testid="stage-table"]');
  const head = await table.locator('thead th').allTextContents();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
  return { head, rows };
}

async function selectedTrajectory(page: Page): Promise<number> {
  return Number(await page.locator('[data-testid="trajectory-pick"][aria-pressed="true"]').getAttribute('data-index'));
}

/** A number as the table prints it (4 decimals or 4 significant digits) against the exported one. */
function shownAs(cell: string, value: number): boolean {
  return Math.abs(Number(cell) - value) <= 1e-4 + 1e-3 * Math.abs(value);
}

const FIELD_OF: Record<string, string> = {
  l_old: 'l_old',
  l_student: 'l_student',
  l_skill: 'l_skill',
  l_ref: 'l_ref',
  Δ: 'delta',
  gate: 'gate',
  coef: 'coef',
  grpo: 'coef_grpo',
  opd: 'coef_opd',
  kl: 'coef_kl',
};

/** Every row of the table on screen is the exported row of that token: its step, its text and every number. */
function expectTableInExport(shown: Awaited<ReturnType<typeof shownTable>>, tokens: Noted[], trajectory: number): void {
  const mine = tokens.filter((t) => t.trajectory === trajectory);
  expect(shown.rows).toHaveLength(mine.length);
  expect(shown.head.slice(0, 2)).toEqual(['step', 'token']);
  shown.rows.forEach((cells, r) => {
    expect([Number(cells[0]), cells[1]]).toEqual([mine[r].step, mine[r].token]);
    shown.head.slice(2).forEach((name, c) => {
      const field = FIELD_OF[name];
      expect(field, name).toBeDefined();
      expect(
        shownAs(cells[c + 2], mine[r][field] as number),
        `${name} of row ${r}: ${cells[c + 2]} vs ${mine[r][field]}`,
      ).toBe(true);
    });
  });
}

describe('per-token export', () => {
  const chromium = chromiumForSuite();

  it('holds the stage table: token texts and every number, as loss JSON and CSV, different at stages 4 and 6', async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    // The first rollout runs by itself once the run has started.
    await page.locator('[data-testid="stages"][data-stage="rollout"]').waitFor();
    for (const stage of ['rewards', 'skills', 'rescore']) await stageTo(page, stage);
    const trajectory = await selectedTrajectory(page);
    // The table on screen hides the forced tokens until asked; the exports hold every token.
    await page.getByTestId('forced-toggle').click();

    const four = await exportTable(page);
    expect([four.json.name, four.csv.name]).toEqual([
      'seed-tokens-update-1-stage-4.json',
      'seed-tokens-update-1-stage-4.csv',
    ]);
    const problem = parseLossProblem(four.json.text);
    expect(problem.lStudent.length).toBe(four.tokens.length);
    expect(four.tokens.every((t) => typeof t.token === 'string' && !('delta' in t))).toBe(true);
    expect(four.rows[0]).toBe('trajectory,step,token,l_old,l_student,l_skill,l_ref,advantage,mask,opd_mask');
    expect(four.rows).toHaveLength(1 + four.tokens.length);
    expectTableInExport(await shownTable(page), four.tokens, trajectory);

    await stageTo(page, 'loss');
    const five = await exportTable(page);
    expect(five.json.name).toBe('seed-tokens-update-1-stage-5.json');
    expect(parseLossProblem(five.json.text).lStudent.length).toBe(four.tokens.length);
    expect(five.rows[0]).toBe(
      'trajectory,step,token,l_old,l_student,l_skill,l_ref,advantage,mask,opd_mask,delta,gate,coef,coef_grpo,coef_opd,coef_kl',
    );
    expectTableInExport(await shownTable(page), five.tokens, trajectory);
    // The CSV rows are the JSON's tokens.
    five.tokens.forEach((t, k) => {
      const cells = five.rows[k + 1].split(',');
      expect([
        Number(cells[0]),
        Number(cells[1]),
        cells[2],
        Number(cells[10]),
        Number(cells[11]),
        Number(cells[12]),
      ]).toEqual([t.trajectory, t.step, t.token, t.delta, t.gate, t.coef]);
    });

    await stageTo(page, 'optimizer');
    const six = await exportTable(page);
    expect(six.json.name).toBe('seed-tokens-update-1-stage-5.json');
    expect(six.json.text).toBe(five.json.text);
    expect(six.csv.text).toBe(five.csv.text);
    expect(six.json.text).not.toBe(four.json.text);
    expect(six.csv.text).not.toBe(four.csv.text);
    expect(problems).toEqual([]);
  });
});
