// What the page is told about a trajectory: its steps and tokens line up with the rollout, and its skill
// says where it came from (written from this trajectory, seed-static's library, swapped by seed-sibling, or given
// to the teacher as a part control's part).
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { Rng } from '../common/rng.ts';
import { generateScene } from '../worlds/household/env/splits.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultConfig } from '../rl/config.ts';
import type { Algo } from '../rl/arms.ts';
import { rewardsStage } from '../rl/advantages.ts';
import { lossHyper } from '../rl/loss.ts';
import { rollout, type Trajectory } from '../rl/rollout.ts';
import type { UpdateState } from '../rl/update_state.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { choiceTokens, creditDiagnostics } from '../rl/diagnostics.ts';
import { Trainer } from '../rl/trainer.ts';
import { creditView, groupViews, trajectoryView } from './views.ts';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';
import type { Scene } from '../worlds/household/env/scene.ts';
import type { RlWorld } from '../rl/rl_world.ts';

const tok = defaultTokenizer();
const model = presetConfig('micro', tok.vocabSize);
const config = { ...defaultConfig('micro'), maxSteps: 3, history: 3 };

async function twoTrajectories(): Promise<Trajectory[]> {
  const scene = generateScene('train', 0, TINY, 1);
  const backend = CpuBackend.fromSeed(model, 1);
  const options = {
    maxSteps: 3,
    history: 3,
    temperature: 1,
    constrained: true,
    maxCommandTokens: 12,
    maxSkillTokens: 48,
  };
  return rollout(householdEnvironment(), backend, tok, [scene, scene], [0, 0], options, new Rng(2));
}

/** The fields of an update's state that the views read, after stage 3. */
function stateAfterSkills(
  ts: Trajectory[],
  written: UpdateState['written'],
  used: UpdateState['used'],
  algo: Algo = 'seed',
): UpdateState {
  return {
    update: 0,
    config,
    algo,
    lossHyper: lossHyper(algo, config),
    stage: 3,
    scenes: ts.map((t) => t.scene),
    trajectories: ts,
    rewards: new Float64Array([0, 0]),
    advantages: new Float64Array([0, 0]),
    groups: [{ task: 0, members: [0, 1], mean: 0, std: 0 }],
    written,
    used,
    tokenOffsets: new Int32Array(0),
    inputs: null,
    loss: null,
    step: null,
    skipped: null,
    startedMs: 0,
    tokens: 0,
  };
}

const A = { text: 'workflow: go to the fridge 1, open the fridge 1.', ok: true, reason: '' };
const B = { text: 'avoid: opening the fridge 1 twice; the apple was in the fridge 1.', ok: true, reason: '' };

describe('trajectory view', () => {
  it('lines steps up with their command tokens and l_old', async () => {
    const [t] = await twoTrajectories();
    const v = trajectoryView(tok, 'seed', 1, 2, t, config, null, null, model.contextLength);
    expect(v.steps.map((s) => s.command)).toEqual(t.records.slice(1).map((r) => r.action));
    expect(v.tokens.length).toBe(t.lOld.length);
    for (const s of v.steps) {
      expect(
        v.tokens
          .slice(s.tokenStart, s.tokenStart + s.tokenCount)
          .filter((x) => x !== '<end>')
          .join(' '),
      ).toBe(tok.decode(tok.encode(s.command)).split(/\s+/).join(' '));
      expect(v.tokens[s.tokenStart + s.tokenCount - 1]).toBe('<end>');
    }
    // A command's first word is a choice among several; within a command, the trie forces some tokens.
    expect(v.choice.length).toBe(v.tokens.length);
    for (const s of v.steps) expect(v.choice[s.tokenStart]).toBe(1);
    expect(v.choice.some((c) => c === 0)).toBe(true);
    expect(v.skill).toBeNull();
    expect(v.scores).toBeNull();
  });

  it('says which skill distillation used: its own, another trajectory’s, or the library’s', async () => {
    const ts = await twoTrajectories();
    const own = trajectoryView(
      tok,
      'seed',
      1,
      2,
      ts[0],
      config,
      stateAfterSkills(ts, [A, B], [A, B]),
      null,
      model.contextLength,
    );
    expect(own.skill).toMatchObject({
      text: A.text,
      valid: true,
      repeats: null,
      origin: 'written',
      usedInstead: null,
      outcome: ts[0].won ? 'success' : 'failure',
    });
    const loop = { text: 'workflow: open the drawer 1, open the drawer 1, open the drawer 1.', ok: true, reason: '' };
    const looping = trajectoryView(
      tok,
      'seed',
      1,
      2,
      ts[0],
      config,
      stateAfterSkills(ts, [loop, B], [loop, B]),
      null,
      model.contextLength,
    );
    expect(looping.skill).toMatchObject({ valid: true, repeats: 'open the drawer 1' });
    expect(own.skill!.prompt.startsWith('<analyze> <task>')).toBe(true);
    for (const s of ts[0].records.slice(1)) expect(own.skill!.prompt).toContain(s.action);

    const swapped = trajectoryView(
      tok,
      'seed-sibling',
      1,
      2,
      ts[0],
      config,
      stateAfterSkills(ts, [A, B], [B, A]),
      null,
      model.contextLength,
    );
    expect(swapped.skill).toMatchObject({
      text: A.text,
      origin: 'written',
      usedInstead: { text: B.text, valid: true, part: null },
    });

    // A part control: the teacher read a transform of the skill written, shown beside it even where it reads
    // the same, and what it is.
    const parts = [
      { algo: 'seed-procedure', text: 'workflow: go to it, open it.' },
      { algo: 'seed-exact-empty', text: '' },
      { algo: 'seed-facts', text: A.text },
    ] as const;
    for (const { algo, text } of parts) {
      const transformed = { text, ok: true, reason: '' };
      const v = trajectoryView(
        tok,
        'seed',
        1,
        2,
        ts[0],
        config,
        stateAfterSkills(ts, [A, B], [transformed, B], algo),
        null,
        model.contextLength,
      );
      expect(v.skill, algo).toMatchObject({ text: A.text, origin: 'written' });
      expect(v.skill!.usedInstead, algo).toEqual({ text, valid: true, part: algo.replace(/^seed(-exact)?-/, '') });
    }

    const library = trajectoryView(
      tok,
      'seed-static',
      1,
      2,
      ts[1],
      config,
      stateAfterSkills(ts, [null, null], [B, B]),
      null,
      model.contextLength,
    );
    expect(library.skill).toMatchObject({ text: B.text, origin: 'library', prompt: '', usedInstead: null });

    const grpo = trajectoryView(
      tok,
      'grpo',
      1,
      2,
      ts[1],
      config,
      stateAfterSkills(ts, [null, null], [null, null]),
      null,
      model.contextLength,
    );
    expect(grpo.skill).toBeNull();
  });
});

describe('skill view', () => {
  it('names the kind the text states, apart from the outcome the analyzer was told', async () => {
    const ts = await twoTrajectories();
    const lost = { ...ts[0], won: false };
    const won = { ...ts[1], won: true };
    const odd = { text: 'go to the fridge 1 and open it', ok: false, reason: 'expected "workflow" or "avoid"' };
    const views = (written: UpdateState['written']) =>
      [lost, won].map(
        (t) =>
          trajectoryView(
            tok,
            'seed',
            1,
            2,
            t,
            config,
            stateAfterSkills([lost, won], written, written),
            null,
            model.contextLength,
          ).skill!,
      );
    expect(views([A, B]).map((v) => [v.outcome, v.kind])).toEqual([
      ['failure', 'workflow'],
      ['success', 'avoid'],
    ]);
    expect(views([odd, odd]).map((v) => v.kind)).toEqual([null, null]);
  });
});

describe('group view', () => {
  it('shows the group statistics the advantages were computed with, step-normalised ones included', async () => {
    const [a, b] = await twoTrajectories();
    // A won episode of 3 steps and a lost one of 1: step-normalised, the mean is (3 * 10 + 0) / 4 = 7.5, not 5.
    const ts = [
      { ...a, won: true, invalid: 0, records: a.records.slice(0, 4) },
      { ...b, won: false, invalid: 0, records: b.records.slice(0, 2) },
    ];
    const st: UpdateState = {
      ...stateAfterSkills(ts, [null, null], [null, null]),
      config: { ...config, stepNormalised: 1 },
      groups: [],
    };
    expect(groupViews(st)).toBeNull();
    rewardsStage(st);
    const [g] = groupViews(st)!;
    expect(g.rewards).toEqual([10, 0]);
    expect(g.mean).toBeCloseTo(7.5, 12);
    expect(g.std).toBe(st.groups[0].std);
    expect(g.advantages[0]).toBeCloseTo((10 - 7.5) / (g.std + 1e-6), 9);
    expect(g.advantages).toEqual(Array.from(st.advantages));
  });
});

describe('credit in the step-through', () => {
  it("shows the update's credit figures over its decision tokens once the loss ran", async () => {
    const trainer = new Trainer({
      backend: CpuBackend.fromSeed(model, 3),
      tokenizer: tok,
      algo: 'seed-static',
      config: { ...config, groupSize: 2, tasksPerUpdate: 2 },
      seed: 4,
      world: householdRl(TINY),
    });
    trainer.staticLibrary = { any: [A.text] };
    for (let s = 0; s < 4; s++) await trainer.nextStage();
    const st = trainer.current!;
    expect(creditView(st)).toBeNull();
    await trainer.nextStage();
    const d = creditDiagnostics(st);
    // Every trajectory has the library's skill: its decision tokens are exactly those with a choice.
    expect(d.decisionTokens).toBe(st.trajectories.reduce((n, t) => n + choiceTokens(t).reduce((m, c) => m + c, 0), 0));
    expect(d.decisionTokens).toBeGreaterThan(0);
    expect(creditView(st)).toEqual({
      decisionTokens: d.decisionTokens,
      corrDeltaExpert: d.corrDeltaExpert,
      meanDelta: d.meanDelta,
      meanGate: d.meanGate,
    });
  });
  it("reports the world's truth test of the skill against the trajectory's own game, apart from being well formed", async () => {
    const ts = await twoTrajectories();
    const scene = ts[0].scene as Scene;
    const object = scene.objects.find((o) => o.name.startsWith(`${scene.task.object} `))!;
    const goal = 'target' in scene.task ? scene.task.target : null;
    const elsewhere = scene.receptacles.map((r) => r.name).find((r) => r !== object.in && !r.startsWith(`${goal} `))!;
    const skill = (text: string) => ({ text, ok: true, reason: '' });
    const truthOf = (text: string, world: Pick<RlWorld, 'truthShares'> | null = householdRl()) =>
      trajectoryView(
        tok,
        'seed',
        1,
        2,
        ts[0],
        config,
        stateAfterSkills(ts, [skill(text), B], [skill(text), B]),
        null,
        model.contextLength,
        undefined,
        world,
      ).skill!.truth;
    const right = `workflow: take the ${object.name} from the ${object.in}.`;
    const wrong = `workflow: take the ${object.name} from the ${elsewhere}.`;
    expect(truthOf(right)).toEqual({ statesTrue: true, statesFalse: false });
    expect(truthOf(wrong)).toEqual({ statesTrue: false, statesFalse: true });
    expect(truthOf('workflow: go to the sofa 1, look.')).toEqual({ statesTrue: false, statesFalse: false });
    // Without a world to ask, nothing is said of truth.
    expect(truthOf(right, null)).toBeNull();
  });
});
