// The page explains itself and can be used from the keyboard, micro preset: the account of SEED, a caption and
// defined symbols on each stage, the large live numbers and the teacher check, the episode view during Play,
// skill labels that agree with their text, skip links, shortcuts, one tab stop for the tokens, the favicon,
// and a checkpoint import that carries on the update count.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { STAGE_CAPTIONS, SYMBOLS, PAPER_URL } from '../src/ui/explain.ts';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import {
  FAST,
  SCREENSHOTS,
  curvePoints,
  downloadBytes,
  engineReady,
  firstRollout,
  foreignRequests,
  openPlayground,
} from './page.ts';

const STAGES = ['rollout', 'rewards', 'skills', 'rescore', 'loss', 'optimizer'] as const;

async function text(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).textContent()) ?? '';
}

/** The data-testid of the focused element, or its id. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.id ?? '');
}

/** What the episode view shows now: its update, and whether every token of the open transcript was scored. */
async function episodeView(page: Page) {
  return page.evaluate(() => {
    const update = document.querySelector('[data-testid="episodes-update"]')?.textContent ?? '';
    const done = Number(document.querySelector('[data-testid="curves"]')?.getAttribute('data-points'));
    const gates = Array.from(document.querySelectorAll('[data-testid="transcript"] .tok'), (el) =>
      el.getAttribute('data-gate'),
    );
    return {
      update: Number(/update (\d+)/.exec(update)?.[1] ?? Number.NaN),
      done,
      tokens: gates.length,
      scored: gates.every((g) => g !== null && Number.isFinite(Number(g))),
      skill: document.querySelector('[data-testid="skill-text"]') !== null,
    };
  });
}

describe('guide', () => {
  const chromium = chromiumForSuite();

  it('explains SEED, captions every stage, defines its symbols, shows live numbers and runs the teacher check', async () => {
    const opened = await openPlayground(chromium.browser, formatHash(FAST));
    const { page, problems } = opened;
    await engineReady(page);
    const guide = page.getByTestId('guide');
    await guide.locator('summary').click();
    const account = (await guide.textContent()) ?? '';
    for (const words of ['hindsight skill', 'same network', 'The gate', 'g = sigmoid(β·Delta)'])
      expect(account).toContain(words);
    expect(await page.getByTestId('paper-link').getAttribute('href')).toBe(PAPER_URL);
    expect(await page.getByTestId('preset-note').getAttribute('data-preset')).toBe('micro');
    expect(await text(page, 'preset-note')).toContain('What to look for');
    expect(await text(page, 'live-update')).toBe('0');

    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => text(page, 'live-update')).toBe('1');
    await expect.poll(() => text(page, 'live-episodes')).toBe(String(FAST.groupSize * FAST.tasksPerUpdate));
    await expect.poll(() => text(page, 'live-eval-seen')).toMatch(/^\d+\.\d%$/);
    await expect.poll(() => text(page, 'live-eval-unseen')).toMatch(/^\d+\.\d%$/);

    await page.getByTestId('teacher-games').fill('4');
    await page.getByTestId('teacher-run').click();
    const result = page.getByTestId('teacher-result');
    await result.waitFor();
    for (const key of ['data-own', 'data-none']) {
      const x = Number(await result.getAttribute(key));
      expect(x * 4).toBe(Math.round(x * 4));
    }
    for (const figure of ['teacher-own', 'teacher-none', 'teacher-other', 'teacher-blank'])
      expect(await text(page, figure)).toMatch(/^\d+\.\d%$/);
    expect(await result.textContent()).toContain('with a blank block');
    expect(await result.textContent()).toContain('4 games after update 1');
    await page.getByTestId('live').screenshot({ path: `${SCREENSHOTS}/e2e-guide-live.png` });

    for (const stage of STAGES) {
      await page.getByTestId('stage-next').click();
      await page.locator(`[data-testid="stages"][data-stage="${stage}"]`).waitFor();
      await engineReady(page);
      expect(await text(page, 'stage-caption')).toBe(STAGE_CAPTIONS[stage]);
      // Every column symbol of the table carries its definition, and the list beside the table defines it too.
      const abbrs = await page
        .locator(
          '[data-testid="stages"] [data-testid="stage-table"] abbr, [data-testid="stages"] [data-testid="stage-table-note"] abbr',
        )
        .evaluateAll((els) => els.map((el) => [el.getAttribute('data-symbol'), el.getAttribute('title')]));
      const defined = await page
        .locator('[data-testid="stages"] [data-testid="symbols"] dd')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-symbol')));
      for (const [name, title] of abbrs) {
        expect(title).toBe(SYMBOLS[name as keyof typeof SYMBOLS]);
        expect(defined).toContain(name);
      }
      if (stage === 'rescore') expect(abbrs.map(([n]) => n)).toEqual(['l_old', 'l_student', 'l_skill', 'l_ref']);
      if (stage === 'loss')
        expect(defined).toEqual(
          expect.arrayContaining(['Δ', 'gate', 'coef', 'grpo', 'opd', 'kl', 'corr(Δ, expert)', 'λ', 'β']),
        );
      // The update's step-level credit, over its decision tokens.
      if (stage === 'loss')
        expect(await text(page, 'stage-credit')).toMatch(
          /Over the update’s \d+ decision tokens: corr\(Δ, expert\) (-?\d\.\d{3}|not defined)/,
        );
    }
    await page.getByTestId('stages').screenshot({ path: `${SCREENSHOTS}/e2e-guide-stage-6.png` });

    // Skill labels: the kind is the text's first word, the outcome is the game's, each said apart.
    const picks = page.getByTestId('trajectory-pick');
    for (let i = 0; i < (await picks.count()); i++) {
      await picks.nth(i).click();
      const skill = (await text(page, 'skill-text')).trim();
      const kind = skill.startsWith('workflow') ? 'workflow' : skill.startsWith('avoid') ? 'avoid' : '';
      expect(await page.getByTestId('skill-kind').getAttribute('data-kind')).toBe(kind);
      expect(await text(page, 'skill-outcome')).toBe(`written after a ${await text(page, 'transcript-outcome')}`);
    }
    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows the last completed update, scored and with its skills, while training plays', async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    await page.getByTestId('play').click();
    await expect.poll(() => curvePoints(page)).toBeGreaterThanOrEqual(1);
    // Sampled until three updates have been shown, so through at least one whole update in between: every
    // view is a finished update, never the rollout in progress.
    const seen = new Set<number>();
    const wrong: string[] = [];
    await expect
      .poll(async () => {
        const view = await episodeView(page);
        // An update is complete once its step is applied; its point comes after its evaluation.
        if (!(view.update <= view.done + 1 && view.tokens > 0 && view.scored && view.skill))
          wrong.push(JSON.stringify(view));
        seen.add(view.update);
        return seen.size;
      })
      .toBeGreaterThanOrEqual(3);
    expect(wrong).toEqual([]);
    await page.getByTestId('pause').click();
    await engineReady(page);
    expect(problems).toEqual([]);
  });

  it('has skip links, shortcuts and one tab stop for the tokens', async () => {
    const opened = await openPlayground(chromium.browser, formatHash(FAST));
    const { page, problems } = opened;
    await firstRollout(page);
    await engineReady(page);
    const hash = await page.evaluate(() => location.hash);
    // The first Tab reaches the skip links; each moves the focus to its part of the page, the URL unchanged.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('skip-controls');
    for (const [link, target] of [
      ['skip-controls', 'controls-title'],
      ['skip-curves', 'curves-title'],
      ['skip-episodes', 'episodes-title'],
      ['skip-stages', 'stages-title'],
    ]) {
      await page.getByTestId(link).focus();
      await page.keyboard.press('Enter');
      expect(await focused(page)).toBe(target);
    }
    expect(await page.evaluate(() => location.hash)).toBe(hash);
    for (const key of ['Space', 'S', 'N']) expect(await text(page, 'shortcuts')).toContain(key);

    // Shortcuts act from anywhere but a field.
    await page.locator('h1').click();
    await page.keyboard.press('s');
    await expect.poll(() => curvePoints(page)).toBe(1);
    await engineReady(page);
    await page.keyboard.press('n');
    await page.locator('[data-testid="stages"][data-stage="rollout"]').waitFor();
    await engineReady(page);
    // A shortcut takes its key by preventing the key's default, which a listener added after it sees: keys
    // typed in a field must all be left to the field.
    await page.evaluate(() => {
      const w = window as unknown as { shortcutKeys: number };
      w.shortcutKeys = 0;
      window.addEventListener('keydown', (event) => {
        if (event.defaultPrevented) w.shortcutKeys++;
      });
    });
    const shortcutKeys = () => page.evaluate(() => (window as unknown as { shortcutKeys: number }).shortcutKeys);
    await page.getByTestId('teacher-games').fill('');
    await page.getByTestId('teacher-games').pressSequentially('3s n');
    expect(await shortcutKeys()).toBe(0);
    expect(await page.locator('[data-testid="engine-state"]').getAttribute('data-state')).toBe('ready');
    expect(await curvePoints(page)).toBe(1);
    await page.locator('h1').click();
    await page.keyboard.press(' ');
    expect(await shortcutKeys()).toBe(1);
    await page.locator('[data-testid="engine-state"][data-state="playing"]').waitFor();
    await page.keyboard.press(' ');
    await engineReady(page);

    // One tab stop for the whole token strip; the arrow keys move within it.
    const transcriptTokens = page.locator('[data-testid="transcript"] .tok');
    expect(await transcriptTokens.count()).toBeGreaterThan(2);
    expect(await page.locator('[data-testid="transcript"] .tok[tabindex="0"]').count()).toBe(1);
    await page.locator('h1').click();
    let tabs = 0;
    let reachedToken = false;
    while (tabs < 80 && (await focused(page)) !== 'stage-next') {
      await page.keyboard.press('Tab');
      tabs++;
      reachedToken ||= await page.evaluate(() => document.activeElement?.classList.contains('tok') ?? false);
    }
    expect(await focused(page)).toBe('stage-next');
    expect(reachedToken).toBe(true);
    expect(tabs).toBeLessThan(60);
    await transcriptTokens.first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-k'))).toBe('1');
    await page.keyboard.press('End');
    expect(Number(await page.evaluate(() => document.activeElement?.getAttribute('data-k')))).toBe(
      (await transcriptTokens.count()) - 1,
    );
    expect(await page.locator('[data-testid="token-detail"] dd[data-name="l_old"]').count()).toBe(1);

    // The site's own icon, from its folder.
    const icon = await page.locator('link[rel="icon"]').evaluate((el) => (el as HTMLLinkElement).href);
    expect(icon).toBe(new URL('favicon.svg', page.url()).href);
    const served = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return [r.status, r.headers.get('content-type'), (await r.text()).slice(0, 4)];
    }, icon);
    expect(served).toEqual([200, 'image/svg+xml', '<svg']);
    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('carries on the update count of an imported run checkpoint', async () => {
    const first = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(first.page);
    for (let i = 1; i <= 2; i++) {
      await first.page.getByTestId('step-update').click();
      await expect.poll(() => curvePoints(first.page)).toBe(i);
      await engineReady(first.page);
    }
    const exported = await downloadBytes(first.page, 'export-checkpoint');
    await first.context.close();

    const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await expect.poll(() => curvePoints(page)).toBe(1);
    await engineReady(page);
    await page
      .getByTestId('import-checkpoint')
      .setInputFiles({ name: 'run.ckpt', mimeType: 'application/octet-stream', buffer: Buffer.from(exported.bytes) });
    await expect.poll(() => text(page, 'checkpoint-message')).toContain('the run goes on from its update 2');
    await expect.poll(() => curvePoints(page)).toBe(0);
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await expect.poll(() => curvePoints(page)).toBe(1);
    await engineReady(page);
    await expect.poll(() => text(page, 'live-update')).toBe('3');
    await expect.poll(() => text(page, 'live-episodes')).toBe(String(3 * FAST.groupSize * FAST.tasksPerUpdate));
    expect(problems).toEqual([]);
  });
});
