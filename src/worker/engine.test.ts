// The engine on the CPU backend with the micro preset: the first rollout arrives by itself, the six stages
// show the update's real numbers (recomputed here from the exported loss JSON), lambda changes without a
// reset, and a saved run resumes where it stopped.
import { beforeEach, describe, expect, it } from 'vitest';
import { NonFiniteError } from '../backend/backend.ts';
import { parseLossProblem, shortestFloat32 } from '../backend/loss_json.ts';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { seedLoss } from '../backend/cpu/seed_loss.ts';
import { Rng } from '../common/rng.ts';
import { readCheckpoint, writeCheckpoint } from '../model/checkpoint.ts';
import { presetConfig } from '../model/config.ts';
import { initParameters } from '../model/init.ts';
import { parameterLayout } from '../model/layout.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { Engine } from './engine.ts';
import { TEST_SETTINGS as SETTINGS, clearStore, memoryHost } from './engine_testing.ts';
import { indexedDbStore } from './persist.ts';
import type { SavedRun } from './saved_run.ts';
import { largestChanges } from './views.ts';
import { STAGES } from '../rl/update_state.ts';
import type { EngineEvent, StageSnapshot, TokenTableExport } from './protocol.ts';

beforeEach(clearStore);

async function savedRecord(id: string): Promise<SavedRun> {
  return (await indexedDbStore.get(id)) as SavedRun;
}

async function startedEngine(settings = SETTINGS) {
  const host = memoryHost();
  const engine = new Engine(host);
  const events: EngineEvent[] = [];
  await engine.subscribe((e) => events.push(e));
  const info = await engine.start(settings, null);
  return { host, engine, events, info };
}

function close(a: number, b: number, tol: number): boolean {
  return Math.abs(a - b) <= tol + tol * Math.abs(b);
}

describe('engine', () => {
  it('puts the first rollout on screen, then steps through the six stages with their numbers', async () => {
    const { engine, events, info } = await startedEngine();
    expect(info.runs).toEqual(['seed']);
    expect(info.backend.kind).toBe('cpu');
    // The first rollout runs by itself after start; the next call waits for it.
    const exported = await engine.exportCheckpoint('seed');
    const first = events.find((e): e is Extract<EngineEvent, { type: 'stage' }> => e.type === 'stage')!.snapshot;
    expect(first.stage).toBe('rollout');
    expect(first.update).toBe(1);
    expect(first.trajectories).toHaveLength(4);
    expect(events.filter((e) => e.type === 'trajectory')).toHaveLength(4);
    // A random policy wins nothing, so GRPO has no signal; weights moved away from the reference give the KL
    // term one, so that the step below has a gradient.
    const tok = defaultTokenizer();
    const ck = readCheckpoint(exported, { vocabHash: tok.hash });
    const rng = new Rng(5);
    const moved = ck.params.map((x) => x + 0.05 * rng.normal());
    await engine.importCheckpoint(writeCheckpoint({ ...ck, params: moved }));
    const snapshots: StageSnapshot[] = [];
    let atRescore: TokenTableExport | null = null;
    for (let i = 0; i < STAGES.length; i++) {
      snapshots.push(await engine.stepStage('seed'));
      if (snapshots[i].stage === 'rescore') atRescore = await engine.tokenTable('seed');
    }
    await expect(new Engine(memoryHost()).tokenTable('seed')).rejects.toThrow('no run has started');
    expect(snapshots.map((s) => s.stage)).toEqual(STAGES);
    expect(snapshots.every((s) => s.update === 1)).toBe(true);

    const [rollout, rewards, skills, rescore, loss, optimizer] = snapshots;
    for (const t of rollout.trajectories) {
      expect(t.tokens.length).toBe(t.lOld.length);
      expect(t.steps.reduce((n, s) => n + s.tokenCount, 0)).toBe(t.tokens.length);
      expect(t.lOld.every((x) => x <= 0 && Number.isFinite(x))).toBe(true);
    }
    // Stage 2: group means and advantages as docs/seed-loss.md defines them.
    for (const g of rewards.groups!) {
      const mean = g.rewards.reduce((a, b) => a + b, 0) / g.rewards.length;
      expect(g.mean).toBeCloseTo(mean, 12);
      g.advantages.forEach((a, j) => {
        expect(a).toBeCloseTo((g.rewards[j] - g.mean) / (g.std + 1e-6), 9);
      });
    }
    // Stage 3: every trajectory has a skill, told its own outcome.
    for (const t of skills.trajectories) {
      expect(t.skill).not.toBeNull();
      expect(t.skill!.outcome).toBe(t.won ? 'success' : 'failure');
      expect(t.skill!.prompt).toContain(t.won ? 'success' : 'failure');
    }
    // Stage 4: l_student from a plain scoring pass equals l_old (same weights, same context) to float32 noise.
    for (const t of rescore.trajectories) {
      t.scores!.lStudent.forEach((x, k) => {
        expect(close(x, t.lOld[k], 1e-4)).toBe(true);
      });
      expect(t.scores!.delta.every(Number.isNaN)).toBe(true);
    }
    // The table exported at stage 4 holds the l_student shown there, the same inputs, and recomputes to the
    // stage-5 numbers (l_student of the scoring and of the loss pass agree to float32 noise).
    const early = parseLossProblem(atRescore!.json);
    expect(Array.from(early.lStudent)).toEqual(rescore.trajectories.flatMap((t) => Array.from(t.scores!.lStudent)));
    expect(atRescore!.stage).toBe(4);
    expect(atRescore!.csv.split('\n')[0]).toBe(
      'trajectory,step,token,l_old,l_student,l_skill,l_ref,advantage,mask,opd_mask',
    );
    expect(JSON.parse(atRescore!.json).tokens[0]).not.toHaveProperty('delta');
    // Stage 5: the exported loss JSON, recomputed by the CPU reference, gives the numbers shown per token; the
    // file and its CSV hold each token's text and the Delta, gate and coefficients shown.
    const table = await engine.tokenTable('seed');
    expect(table).toMatchObject({ run: 'seed', update: 1, stage: 5 });
    const problem = parseLossProblem(table.json);
    const noted = JSON.parse(table.json).tokens as Record<string, number | string>[];
    const csv = table.csv.trimEnd().split('\n');
    expect(csv[0]).toBe(
      'trajectory,step,token,l_old,l_student,l_skill,l_ref,advantage,mask,opd_mask,delta,gate,coef,coef_grpo,coef_opd,coef_kl',
    );
    expect(csv).toHaveLength(1 + noted.length);
    expect(problem.hyper).toEqual({
      lambda: SETTINGS.lambda,
      beta: SETTINGS.beta,
      clip: SETTINGS.clip,
      klCoef: SETTINGS.klCoef,
      gate: true,
    });
    const re = seedLoss(problem.lStudent, problem.inputs, problem.hyper);
    let k = 0;
    for (const t of loss.trajectories) {
      const s = t.scores!;
      for (let j = 0; j < t.tokens.length; j++, k++) {
        expect(noted[k]).toMatchObject({
          trajectory: t.index,
          token: t.tokens[j],
          delta: shortestFloat32(s.delta[j]),
          gate: shortestFloat32(s.gate[j]),
          coef: shortestFloat32(s.coef[j]),
        });
        const row = csv[k + 1].split(',');
        expect([row[0], row[2], Number(row[10]), Number(row[12])]).toEqual([
          String(t.index),
          t.tokens[j],
          shortestFloat32(s.delta[j]),
          shortestFloat32(s.coef[j]),
        ]);
        expect(close(s.delta[j], re.delta[k], 1e-6)).toBe(true);
        expect(close(s.gate[j], re.gate[k], 1e-6)).toBe(true);
        expect(close(s.coef[j], re.coef[k], 1e-5)).toBe(true);
        expect(close(s.coefGrpo[j] + s.coefOpd[j] + s.coefKl[j], s.coef[j], 1e-5)).toBe(true);
        expect(close(s.coefKl[j], re.coefKl[k], 1e-5)).toBe(true);
      }
    }
    expect(k).toBe(problem.lStudent.length);
    // Stage 6: the step changed the parameters, and the metrics of update 1 carry an evaluation.
    expect(optimizer.step!.rmsChange).toBeGreaterThan(0);
    expect(optimizer.step!.largest.length).toBeGreaterThan(0);
    for (const c of optimizer.step!.largest) expect(c.after).not.toBe(c.before);
    // Before it, the warm start's evaluation (update 0), with no training figure.
    const metrics = events.flatMap((e) => (e.type === 'update' ? [e.metrics] : []));
    expect(metrics.map((p) => p.update)).toEqual([0, 1]);
    expect(metrics[0]).toMatchObject({ episodes: 0, L_GRPO: null, successTrain: null, wallMs: null });
    expect(metrics[0].evalSeen).toBeGreaterThanOrEqual(0);
    expect(metrics[0].evalUnseen).toBeGreaterThanOrEqual(0);
    const m = metrics[1];
    expect(m.evalSeen).not.toBeNull();
    expect(m.L_GRPO).toBeCloseTo(re.L_GRPO, 5);
    expect(m.KL).toBeGreaterThan(0);
    expect(optimizer.step!.KL).toBeCloseTo(re.KL, 6);
  });

  it('applies a new lambda at the next update without a reset, and resumes a saved run', async () => {
    const { host, engine, events, info: first } = await startedEngine();
    await engine.stepUpdate();
    expect((await savedRecord(first.runId)).updates).toBe(1);
    // Settings out of range are refused whole: the run keeps the settings it had.
    await expect(engine.configure({ ...SETTINGS, lambda: 0.25, beta: -3 })).rejects.toThrow(
      new RangeError('setting beta is outside [0, 100], got -3'),
    );
    await engine.configure({ ...SETTINGS, lambda: 0.125, beta: 2 });
    await engine.stepStage('seed');
    await engine.stepStage('seed');
    const snap = await engine.stepStage('seed');
    expect(snap.update).toBe(2);
    expect(snap.hyper).toMatchObject({ lambda: 0.125, beta: 2 });

    // Another tab of the same browser (the first one still open) is offered the run, and goes on with a copy.
    const resumed = new Engine(memoryHost(host.browser));
    const [saved] = (await resumed.savedRuns()).runs;
    expect(saved.id).toBe(first.runId);
    expect(saved.curves.map((c) => c.update)).toEqual([0, 1]);
    const info = await resumed.start(SETTINGS, saved.id);
    expect(info.initial.source).toBe('a copy of the run saved at update 1 (that run is open in another tab)');
    expect(info.runId).not.toBe(first.runId);
    const next = await resumed.stepStage('seed');
    expect(next.update).toBe(2);
    expect(events.some((e) => e.type === 'checkpointed')).toBe(true);
  });

  it('runs SEED and GRPO side by side from the same weights, saves and resumes both', async () => {
    const { host, engine, info } = await startedEngine({ ...SETTINGS, algo: 'both' });
    expect(info.runs).toEqual(['seed', 'grpo']);
    const metrics = await engine.stepUpdate();
    expect(metrics.map((m) => [m.run, m.update])).toEqual([
      ['seed', 1],
      ['grpo', 1],
    ]);
    expect(metrics[1].validSkillRate).toBeNull();
    expect(metrics[1].L_OPD).toBe(0);
    const saved = await savedRecord(info.runId);
    expect(saved.runs.map((r) => r.id)).toEqual(['seed', 'grpo']);
    // Both started from the same warm start and the same reference.
    const seedRef = readCheckpoint(saved.runs[0].reference);
    const grpoRef = readCheckpoint(saved.runs[1].reference);
    expect(grpoRef.params).toEqual(seedRef.params);
    const resumed = new Engine(memoryHost(host.browser));
    expect((await resumed.start(SETTINGS, info.runId)).runs).toEqual(['seed', 'grpo']);
    expect((await resumed.stepUpdate()).map((m) => [m.run, m.update])).toEqual([
      ['seed', 2],
      ['grpo', 2],
    ]);
  });

  it('reports an update refused for a non-finite loss, and keeps the weights', async () => {
    const host = memoryHost();
    host.createBackend = async (_choice, config, params) => ({
      backend: new (class extends CpuBackend {
        override async lossBackward(): Promise<never> {
          throw new NonFiniteError('L_GRPO', 'value NaN');
        }
      })(config, params),
      report: { kind: 'cpu', requested: 'cpu', reason: 'requested', adapter: null, fallback: null },
    });
    const engine = new Engine(host);
    const events: EngineEvent[] = [];
    await engine.subscribe((e) => events.push(e));
    await engine.start(SETTINGS, null);
    const before = await engine.exportCheckpoint('seed');
    const [m] = await engine.stepUpdate();
    expect(m.skipped).toBe('non-finite L_GRPO (value NaN)');
    expect(Number.isNaN(m.total)).toBe(true);
    const errors = events
      .filter((e): e is Extract<EngineEvent, { type: 'error' }> => e.type === 'error')
      .map((e) => e.message);
    expect(errors).toEqual(['seed update 1 was refused before it touched the weights: non-finite L_GRPO (value NaN)']);
    expect(readCheckpoint(await engine.exportCheckpoint('seed')).params).toEqual(readCheckpoint(before).params);
  });

  it('refuses a corrupt or mismatched checkpoint with a clear message and keeps the weights', async () => {
    const { engine } = await startedEngine();
    const before = await engine.exportCheckpoint('seed');
    const corrupt = before.slice();
    corrupt[corrupt.length >> 1] ^= 0xff;
    await expect(engine.importCheckpoint(corrupt)).rejects.toThrow(/checksum mismatch/);
    await expect(engine.importCheckpoint(new TextEncoder().encode('hello'))).rejects.toThrow(/not a SEED checkpoint/);
    const tok = defaultTokenizer();
    const tiny = presetConfig('tiny', tok.vocabSize);
    const other = writeCheckpoint({
      config: tiny,
      vocabHash: tok.hash,
      params: initParameters(tiny, 1),
      optimizer: null,
      metadata: {},
    });
    await expect(engine.importCheckpoint(other)).rejects.toThrow(
      "the checkpoint's model differs from this run's micro preset: dModel 48 (expected 16), nHead 4 (expected 2), dMlp 192 (expected 64)",
    );
    expect(await engine.exportCheckpoint('seed')).toEqual(before);
  });

  it('goes on from the update count of an imported run checkpoint, and keeps its own for other checkpoints', async () => {
    const { engine } = await startedEngine();
    await engine.stepUpdate();
    await engine.stepUpdate();
    const atTwo = await engine.exportCheckpoint('seed');
    const other = await startedEngine();
    expect(await other.engine.importCheckpoint(atTwo)).toEqual({ updates: 2, fromCheckpoint: true });
    expect((await other.engine.stepUpdate()).map((m) => [m.update, m.episodes])).toEqual([
      [3, 3 * SETTINGS.groupSize * SETTINGS.tasksPerUpdate],
    ]);
    // A warm start carries no run: the count goes on.
    const ck = readCheckpoint(atTwo);
    const warm = writeCheckpoint({ ...ck, optimizer: null, metadata: { stage: 'warmstart' } });
    expect(await other.engine.importCheckpoint(warm)).toEqual({ updates: 3, fromCheckpoint: false });
    const broken = writeCheckpoint({ ...ck, metadata: { ...ck.metadata, updates: 'two' } });
    await expect(other.engine.importCheckpoint(broken)).rejects.toThrow(
      'metadata.updates is "two", not a whole number in [0, 1000000000]',
    );
  });

  it('runs the teacher check of the current policy with skills it writes', async () => {
    const { engine } = await startedEngine();
    await engine.stepUpdate();
    const check = await engine.teacherCheck('seed', 4);
    expect(check).toMatchObject({ run: 'seed', update: 1, games: 4 });
    for (const x of [check.noSkill, check.ownSkill, check.otherSkill, check.blankSkill, check.validSkills])
      expect(x * 4).toBe(Math.round(x * 4));
    await expect(engine.teacherCheck('seed', 1)).rejects.toThrow('the teacher check plays 2 to 256 games, not 1');
    expect((await engine.stepUpdate()).map((m) => m.update)).toEqual([2]);
  });

  it('names the largest parameter changes by their view', () => {
    const tok = defaultTokenizer();
    const config = presetConfig('micro', tok.vocabSize);
    const before = initParameters(config, 3);
    const after = before.slice();
    after[5] += 0.5;
    const lnfb = parameterLayout(config).views['lnf.b'];
    after[lnfb.offset + 3] -= 0.25;
    after[config.dModel * 7 + 2] += 0.375;
    const { largest, rms } = largestChanges(config, before, after, 8, (id) => tok.token(id));
    expect(largest.map((c) => [c.name, c.index, c.row])).toEqual([
      ['wte', [0, 5], `token “${tok.token(0)}”`],
      ['wte', [7, 2], `token “${tok.token(7)}”`],
      ['lnf.b', [3], null],
    ]);
    expect(largest[0].after - largest[0].before).toBeCloseTo(0.5, 6);
    expect(rms).toBeCloseTo(Math.sqrt((0.25 + 0.140625 + 0.0625) / after.length), 6);
  });
});
