// `bench page` end to end on the built site: a short run of the micro preset, one seed, through the command's
// own code (browser, static server from a sub-path, Play, the live numbers, the curves' CSV), and the report
// and JSON it writes.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/bench/page.ts';
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
    expect(readFileSync(join(out, 'page.md'), 'utf8')).toContain('#seed=S&preset=micro&evalevery=1&evaleps=2');
  });
});
