// A part control in a real Chromium, micro preset: the episode view shows the part of the skill the teacher
// read (here its procedure) beside the skill the policy wrote.
import { describe, expect, it } from 'vitest';
import { skillProcedure } from '../src/worlds/household/skills/parts.ts';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import { FAST, SCREENSHOTS, engineReady, firstRollout, openPlayground } from './page.ts';
import { STAGES } from './stage_picture.ts';

describe('part controls on the page', () => {
  const chromium = chromiumForSuite();

  it('shows, for seed-procedure, the procedure the teacher read beside the skill the policy wrote', async () => {
    const opened = await openPlayground(chromium.browser, formatHash({ ...FAST, algo: 'seed-procedure' }));
    const { page, problems } = opened;
    // The page plays the first rollout by itself; two steps more write the skills and their parts.
    await firstRollout(page);
    await engineReady(page);
    for (const stage of STAGES.slice(1, 3)) {
      await page.getByTestId('stage-next').click();
      await page.locator(`[data-testid="stages"][data-stage="${stage}"]`).waitFor();
      await engineReady(page);
    }
    const picks = page.getByTestId('trajectory-pick');
    const shown: { written: string | null; part: string | null; read: string | null }[] = [];
    for (let i = 0; i < (await picks.count()); i++) {
      await picks.nth(i).click();
      const index = await picks.nth(i).getAttribute('data-index');
      await page.locator(`[data-testid="skill-card"][data-index="${index}"] [data-testid="skill-text"]`).waitFor();
      const used = page.getByTestId('skill-used-instead');
      if ((await used.count()) === 0) continue;
      shown.push({
        written: await page.getByTestId('skill-text').textContent(),
        part: await used.getAttribute('data-part'),
        read: await page.getByTestId('skill-used-text').textContent(),
      });
    }
    expect(shown.length).toBeGreaterThan(0);
    for (const s of shown) {
      expect(s.part).toBe('procedure');
      expect(s.read).toBe(skillProcedure(s.written!));
    }
    await page.getByTestId('skill-card').screenshot({ path: `${SCREENSHOTS}/e2e-part-control-skill.png` });
    expect(problems).toEqual([]);
  });
});
