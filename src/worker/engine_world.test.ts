// The world a page run plays: a shop run builds its trainer, tokenizer, evaluation and teacher check from the
// shop, starts from seeded random weights (no warm start ships for it) and says so, saves its checkpoints with
// the shop's vocabulary, and resumes; a household run after it is the household's again.
import { beforeEach, describe, expect, it } from 'vitest';
import { environmentOf } from '../worlds/environments.ts';
import { readCheckpoint } from '../model/checkpoint.ts';
import { defaultTokenizer, tokenizerOf } from '../text/tokenizer.ts';
import { Engine } from './engine.ts';
import { TEST_SETTINGS, clearStore, memoryHost } from './engine_testing.ts';
import { defaultSettings } from '../rl/page_settings.ts';
import type { EngineEvent } from './protocol.ts';

beforeEach(clearStore);

// The shop plays each step in a window of the last two (its own default), the test's short games aside.
const SHOP_SETTINGS = { ...TEST_SETTINGS, env: 'shop', history: defaultSettings('micro', 'shop').history } as const;

describe('the world of a page run', () => {
  it("trains, evaluates, checks and saves a shop run with the shop's vocabulary, and resumes it", async () => {
    const host = memoryHost();
    let asked: string | null = null;
    host.warmStart = async (preset, env) => {
      asked = `${env} ${preset}`;
      return null;
    };
    const engine = new Engine(host);
    const events: EngineEvent[] = [];
    await engine.subscribe((e) => events.push(e));
    const info = await engine.start(SHOP_SETTINGS, null);
    expect(asked).toBe('shop micro');
    expect(info.initial).toMatchObject({
      env: 'shop',
      random: true,
      source: `a seeded random initialisation, seed ${TEST_SETTINGS.seed} (no warm start ships for the shop's micro preset)`,
    });

    const [metrics] = await engine.stepUpdate();
    expect(metrics.update).toBe(1);
    // Update 1 is evaluated, on the shop's eval games.
    expect(metrics.evalUnseen).not.toBeNull();
    const rollout = events.find(
      (e): e is Extract<EngineEvent, { type: 'trajectory' }> => e.type === 'trajectory',
    )!.trajectory;
    expect(rollout.opening).toMatch(/^WebShop \[SEP\] Instruction: \[SEP\] /);
    expect(environmentOf('shop').taskTypes).toContain(rollout.taskType);

    const shopTok = tokenizerOf(environmentOf('shop'));
    expect(shopTok.hash).not.toBe(defaultTokenizer().hash);
    const ck = readCheckpoint(await engine.exportCheckpoint('seed'), { vocabHash: shopTok.hash });
    expect(ck.config.vocabSize).toBe(shopTok.vocabSize);
    expect(ck.metadata).toMatchObject({ env: 'shop', updates: 1 });

    const check = await engine.teacherCheck('seed', 2);
    expect(check).toMatchObject({ run: 'seed', update: 1, games: 2 });

    const other = new Engine(memoryHost(host.browser));
    const [saved] = (await other.savedRuns()).runs;
    expect([saved.id, saved.settings.env, saved.updates]).toEqual([info.runId, 'shop', 1]);
    const resumed = await other.start(TEST_SETTINGS, saved.id);
    expect(resumed.initial.env).toBe('shop');
    expect((await other.stepUpdate()).map((m) => m.update)).toEqual([2]);

    // The next household run is the household's again: its vocabulary, its pages.
    const household = await engine.start(TEST_SETTINGS, null);
    expect(household.initial).toMatchObject({
      env: 'household',
      source: `a seeded random initialisation, seed ${TEST_SETTINGS.seed} (no warm start ships for the micro preset)`,
    });
    const back = readCheckpoint(await engine.exportCheckpoint('seed'), { vocabHash: defaultTokenizer().hash });
    expect(back.metadata.env).toBeUndefined();
  });

  it("sends nothing of the household's warm-start evaluation once a shop run is asked for while it plays", async () => {
    const engine = new Engine(memoryHost());
    const events: EngineEvent[] = [];
    let switched: { at: number; started: Promise<unknown> } | null = null;
    await engine.subscribe((e) => {
      events.push(e);
      // The switch comes while the household's evaluation plays, as a World change does on the page.
      if (!switched && e.type === 'status' && e.text.startsWith('evaluating the warm start'))
        switched = { at: events.length, started: engine.start(SHOP_SETTINGS, null) };
    });
    await engine.start(TEST_SETTINGS, null);
    await expect.poll(() => switched).not.toBeNull();
    const info = (await switched!.started) as { initial: { env: string } };
    expect(info.initial.env).toBe('shop');
    // The next call waits for the shop run's first rollout and its own warm-start evaluation.
    await engine.exportCheckpoint('seed');
    const after = events.slice(switched!.at);
    const points = after.filter((e) => e.type === 'update');
    expect(points).toHaveLength(1);
    const evaluating = after.findIndex((e) => e.type === 'status' && e.text.startsWith('evaluating the warm start'));
    expect(evaluating).toBeGreaterThanOrEqual(0);
    expect(after.indexOf(points[0])).toBeGreaterThan(evaluating);
  });
});
