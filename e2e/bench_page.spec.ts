// `bench page` end to end on the built site: a short run of the micro preset, one seed, through the command's
// own code (browser, static server from a sub-path, Play, the live numbers, the curves' CSV), and the report
// and JSON it writes; with --shots, the pictures and their sidecar of record hashes.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/lab/page/page.ts';
import { readShotsSidecar, sha256, SHOTS_SIDECAR } from '../src/lab/page/page_shots.ts';
import { checkRecordIndex, newestRecord } from '../src/rl/recorded_run_check.ts';
import { runCaptured } from '../src/cli/testing.ts';

describe('bench page', () => {
  it('drives the built site, cross-origin isolated on more than one thread, and writes the eval curve of each seed', async () => {
    const out = mkdtempSync(join(tmpdir(), 'seed-bench-page-'));
    const { code, stdout } = await runCaptured(run, [
      '--minutes',
      '0.3',
      '--seeds',
      '1',
      '--first-seed',
      '7',
      '--link',
      'preset=micro&evalevery=1&evaleps=2',
      '--site',
      'dist',
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('| 7 | CPU |');
    const json = JSON.parse(readFileSync(join(out, 'page.json'), 'utf8'));
    expect(json.failed).toEqual([]);
    const [seed] = json.seeds;
    expect(seed).toMatchObject({ seed: 7, backend: 'CPU', cross_origin_isolated: true });
    expect(seed.threads).toBeGreaterThan(1);
    expect(seed.updates).toBeGreaterThanOrEqual(2);
    expect(seed.evals.length).toBeGreaterThanOrEqual(2);
    // From the warm start's evaluation (update 0).
    expect(seed.evals[0].update).toBe(0);
    for (const e of seed.evals) for (const v of [e.seen, e.unseen]) expect(v).toBeGreaterThanOrEqual(0);
    expect(seed.grpo_signal_share).toBeGreaterThanOrEqual(0);
    expect(seed.rise).toBeCloseTo(
      50 * (seed.evals.at(-1).seen + seed.evals.at(-1).unseen - seed.evals[0].seen - seed.evals[0].unseen),
      9,
    );
    // When the first evaluation and update showed, and where the updates' time went as the engine timed it.
    expect(seed.first_update_s).toBeGreaterThanOrEqual(0);
    expect(seed.first_eval_s).toBeLessThanOrEqual(seed.first_update_s);
    expect(seed.stages.timed_updates).toBeGreaterThanOrEqual(1);
    expect(seed.stages.rollout_ms).toBeGreaterThan(0);
    expect(seed.stages.evaluations).toBeGreaterThanOrEqual(1);
    const md = readFileSync(join(out, 'page.md'), 'utf8');
    expect(md).toContain('#seed=S&preset=micro&evalevery=1&evaleps=2');
    expect(md).toContain('| optimizer step |');
    expect(md).toMatch(/In the household an update's wait is \d+\.\d\d s on average\./);
  });

  it("races in the world --env names and reports each arm, the paired evaluations and each arm's time", async () => {
    const out = mkdtempSync(join(tmpdir(), 'seed-bench-race-'));
    const { code, stdout } = await runCaptured(run, [
      '--race',
      '--env',
      'shop',
      '--minutes',
      '0.6',
      '--seeds',
      '1',
      '--link',
      'preset=micro&evalevery=1&evaleps=2',
      '--site',
      'dist',
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("The page's Race in the shop");
    const json = JSON.parse(readFileSync(join(out, 'page_race_shop.json'), 'utf8'));
    expect(json).toMatchObject({ env: 'shop', mode: 'race', link: 'env=shop&preset=micro&evalevery=1&evaleps=2' });
    const [seed] = json.seeds;
    // GRPO against the page's own hindsight arm.
    const [grpo, hindsight] = seed.arms.map((a: { algo: string }) => a.algo);
    expect(grpo).toBe('grpo');
    expect(hindsight).not.toBe('grpo');
    for (const arm of seed.arms) {
      expect(arm.updates).toBeGreaterThanOrEqual(1);
      expect(arm.stages.timed_updates).toBeGreaterThanOrEqual(1);
    }
    expect(existsSync(join(out, 'page_race_shop.md'))).toBe(true);
  });

  it("takes the first screen's pictures with a sidecar naming the hash of each record file the page read", async () => {
    const out = mkdtempSync(join(tmpdir(), 'seed-bench-shots-'));
    const link = 'preset=micro&evalevery=1&evaleps=2';
    const { code, stdout } = await runCaptured(run, [
      '--shots',
      '--minutes',
      '0.2',
      '--link',
      link,
      '--site',
      'dist',
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    const dir = join(out, 'shots');
    const sidecar = readShotsSidecar(dir);
    expect(stdout).toContain(SHOTS_SIDECAR);
    expect(sidecar.link).toBe(`#seed=1&${link}`);
    for (const picture of sidecar.pictures) expect(existsSync(join(dir, picture)), picture).toBe(true);
    // The household's first screen reads the index and the household's newest record, as they ship.
    const index = checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8')));
    const drawn = `public/runs/${newestRecord(index, 'household')!.file}`;
    expect(Object.keys(sidecar.records).sort()).toEqual(['public/runs/index.json', drawn].sort());
    for (const [path, hash] of Object.entries(sidecar.records)) expect(sha256(readFileSync(path)), path).toBe(hash);
  });
});
