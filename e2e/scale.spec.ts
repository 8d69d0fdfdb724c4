// "Run it at scale", micro preset: the panel downloads the launch script of the page's run, with its algorithm,
// group, batch and world, and the skill SFT's dataset, a parquet file whose rows hyparquet reads back with the
// paper's skill prompt and the annotator's skill; a run of no counterpart shows why there is no script.
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { formatHash } from '../src/rl/page_settings.ts';
import { FAST, SCREENSHOTS, downloadBytes, downloadText, openPlayground } from './page.ts';
import { chromiumForSuite } from './suite_browser.ts';

describe('Run it at scale', () => {
  const chromium = chromiumForSuite();

  it("downloads the run's launch script and its skill SFT dataset", async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash({ ...FAST, lambda: 0.3 }));
    const panel = page.getByTestId('run-at-scale');
    await panel.scrollIntoViewIfNeeded();
    const script = await downloadText(page, 'scale-script');
    expect(script.name).toBe('run_alfworld_seed.sh');
    // What the link changed from the micro preset's page defaults is carried; what it left there (the batch, the
    // learning rate) takes the paper's value, and the panel says which.
    for (const line of [
      'algorithm.adv_estimator=seed',
      'actor_rollout_ref.actor.opd_loss_coef=0.3',
      `env.rollout.n=${FAST.groupSize}`,
      `env.max_steps=${FAST.maxSteps}`,
      'data.train_batch_size=16',
      'actor_rollout_ref.actor.optim.lr=0.000001',
      'env.env_name=alfworld/AlfredTWEnv',
    ])
      expect(script.text).toContain(`    ${line} \\`);
    expect(await page.getByTestId('scale-carried').textContent()).toMatch(/λ \(OPD weight\) 0\.3 \(paper 0\.01\)/);
    expect(await page.getByTestId('scale-from-paper').textContent()).toMatch(/Learning rate 1e-6 \(here 0\.001\)/);
    expect(await page.getByTestId('scale-from-paper').textContent()).toMatch(/Tasks per update 16 \(here 2\)/);

    // docs/verl.md ships with the built site, under its sub-path, and the browser shows it.
    const doc = await page.getByTestId('scale-doc').evaluate((a) => (a as HTMLAnchorElement).href);
    expect(doc.startsWith(new URL('.', page.url()).href)).toBe(true);
    const reader = await page.context().newPage();
    const shown = await reader.goto(doc);
    expect(shown?.status()).toBe(200);
    expect(await reader.evaluate(() => document.body.textContent)).toMatch(
      /^# A run at scale: the SEED repository's trainer/,
    );
    await reader.close();

    const dataset = await downloadBytes(page, 'scale-sft-train');
    expect(dataset.name).toBe('sft_episode_skill_train.parquet');
    const { bytes } = dataset;
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    });
    expect(rows.length).toBeGreaterThan(100);
    expect(String(rows[0].prompt)).toMatch(/^Analyze the following agent episode and return ONLY valid JSON\./);
    expect(JSON.parse(String(rows[0].response))).toHaveProperty('episode_skill');
    await expect.poll(() => page.getByTestId('scale-message').textContent()).toMatch(/training rows/);
    const val = await downloadBytes(page, 'scale-sft-val');
    expect(val.name).toBe('sft_episode_skill_val.parquet');
    await panel.screenshot({ path: `${SCREENSHOTS}/run-at-scale.png` });

    // seed-exact has no counterpart there: no script, and the reason.
    await page.evaluate(
      (hash) => {
        location.hash = hash;
      },
      formatHash({ ...FAST, algo: 'seed-exact' }),
    );
    await expect.poll(() => page.getByTestId('scale-refused').textContent()).toMatch(/seed-exact has no counterpart/);
    expect(problems).toEqual([]);
  });
});
