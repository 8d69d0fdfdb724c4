// The training engine behind the page: one trainer per run (two when SEED and GRPO run side by side), driven
// stage by stage so that the page sees every stage's numbers, can stop between stages, and can step through
// an update. It knows nothing of workers or browsers: the host gives it the warm start, the backends and the
// store of saved runs, so the same code runs in the Web Worker and in Node tests.
import type { Backend } from '../backend/backend.ts';
import { messageOf } from '../common/errors.ts';
import { DEFAULT_WORLD, type EnvironmentName } from '../worlds/names.ts';
import { environmentOf } from '../worlds/environments.ts';
import { readCheckpoint, writeCheckpoint, type Checkpoint } from '../model/checkpoint.ts';
import { configDifference, presetConfig, type ModelConfig } from '../model/config.ts';
import { parameterLayout } from '../model/layout.ts';
import { checkConfig } from '../rl/config.ts';
import { restoreRun, runCheckpoints } from '../rl/run_checkpoint.ts';
import { runMetadata } from '../rl/run_metadata.ts';
import { unusableWeights } from '../rl/policy_probe.ts';
import { Trainer } from '../rl/trainer.ts';
import { STAGES } from '../rl/update_state.ts';
import { tokenizerOf, type Tokenizer } from '../text/tokenizer.ts';
import { GpuBackendLostError } from '../backend/webgpu/webgpu_backend.ts';
import { runIdsOf, trainConfigOf, type Settings } from '../rl/page_settings.ts';
import {
  MAX_TEACHER_GAMES,
  type BackendReport,
  type EngineApi,
  type EngineEvent,
  type EngineInfo,
  type ImportedCheckpoint,
  type RunId,
  type SavedRuns,
  type StageSnapshot,
  type TeacherCheckView,
  type TokenTableExport,
  type UpdateMetrics,
} from './protocol.ts';
import {
  advanceStage,
  evalProgress,
  newRun,
  runTeacherCheck,
  stageSnapshot,
  trainerOnNewWeights,
  updatePoint,
  warmStartPoints,
  type Run,
} from './engine_run.ts';
import { RunSaves, type RunIds } from './run_saves.ts';
import { readImportedCheckpoint } from './import_checkpoint.ts';
import { initialWeights, type WarmStarts } from './warm_start.ts';
import { tokenTableOf, trajectoryView } from './views.ts';
import { rlWorldOf } from '../worlds/rl_worlds.ts';
import { timedScoring } from './update_timing.ts';

export interface EngineHost extends RunIds, WarmStarts {
  /** A backend for the model, chosen as the settings ask, with the report of how it was chosen. */
  createBackend(
    choice: Settings['backend'],
    config: ModelConfig,
    params: Float32Array,
  ): Promise<{ backend: Backend; report: BackendReport }>;
  now(): number;
  /** Lets queued messages (pause, configure) in between stages. */
  yieldToEvents(): Promise<void>;
  sleep(ms: number): Promise<void>;
}

/** The tokenizer of a world: each has its own vocabulary, so a model's vocabSize depends on the world it plays. */
function worldTokenizer(env: EnvironmentName): Tokenizer {
  return tokenizerOf(environmentOf(env));
}

export class Engine implements EngineApi {
  /** The tokenizer of the world the run plays; the default world's until a run of another starts. */
  private tok: Tokenizer = worldTokenizer(DEFAULT_WORLD);
  private settings: Settings | null = null;
  private runs: Run[] = [];
  private info: EngineInfo | null = null;
  private curves: UpdateMetrics[] = [];
  private listeners: ((e: EngineEvent) => void)[] = [];
  private stopRequested = false;
  private chain: Promise<unknown> = Promise.resolve();
  /** Bumped by every start, so work queued for an old run stops. */
  private generation = 0;
  private readonly saves: RunSaves;

  constructor(private readonly host: EngineHost) {
    this.saves = new RunSaves(host, worldTokenizer);
  }

  async subscribe(listener: (event: EngineEvent) => void): Promise<void> {
    this.listeners.push(listener);
  }

  private emit(event: EngineEvent): void {
    for (const l of this.listeners) l(event);
  }

  /**
   * Runs calls one at a time: the trainers are not re-entrant. Once the device is lost, calls on the run are
   * refused until a start.
   */
  private exclusive<T>(fn: () => Promise<T>, starting = false): Promise<T> {
    const call = async () => {
      if (this.saves.lost && !starting)
        throw new Error('this run stopped when the GPU device was lost: resume it from its last checkpoint, or Reset');
      try {
        return await fn();
      } catch (err) {
        throw this.lostRun(err);
      }
    };
    const next = this.chain.then(call, call);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** A device loss stops the run and offers its last checkpoint (the error then says which); other errors pass. */
  private lostRun(err: unknown): unknown {
    if (!(err instanceof GpuBackendLostError) || this.saves.lost) return err;
    this.saves.stopLost();
    const saved = this.saves.lastSaved;
    const next =
      saved === null
        ? 'This run saved no checkpoint yet: Reset starts it again.'
        : `Its last checkpoint (update ${saved}) is offered at the top of the page: Resume goes on from there.`;
    const message = `${err.message}. ${next}`;
    this.emit({ type: 'lost', message });
    return new Error(message);
  }

  start(requested: Settings, resume: string | null): Promise<EngineInfo> {
    this.stopRequested = true;
    const generation = ++this.generation;
    return this.exclusive(async () => {
      this.stopRequested = false;
      const saved = resume === null ? null : await this.saves.load(resume);
      const settings = saved ? saved.settings : requested;
      // Refused before the running runs are closed: settings out of range leave them as they are.
      checkConfig(trainConfigOf(settings));
      for (const r of this.runs) r.backend.dispose();
      this.runs = [];
      this.curves = [];
      this.settings = settings;
      // The page plays each world at its tiny scale, the one its warm start (when one ships) was made for.
      const env = environmentOf(settings.env);
      this.tok = tokenizerOf(env);
      const copy = await this.saves.begin(saved);
      const config = presetConfig(settings.preset, this.tok.vocabSize);
      const { params, source, random } = await initialWeights(
        this.host,
        settings.env,
        settings.preset,
        config,
        settings.seed,
        this.tok.hash,
      );
      let report: BackendReport | null = null;
      for (const id of runIdsOf(settings.algo)) {
        const { backend: created, report: r } = await this.host.createBackend(settings.backend, config, params);
        report ??= r;
        const scoring = { current: 0, reference: 0 };
        const backend = timedScoring(created, scoring);
        await backend.writeParameters(params);
        await backend.setReferenceFromCurrent();
        const trainer = new Trainer({
          backend,
          tokenizer: this.tok,
          algo: id,
          config: trainConfigOf(settings),
          seed: settings.seed,
          world: rlWorldOf(env),
        });
        this.attachCallbacks(trainer, id, generation);
        this.runs.push(newRun(id, trainer, scoring));
      }
      if (saved) {
        for (const run of this.runs) {
          const files = saved.runs.find((r) => r.id === run.id);
          if (!files) throw new Error(`the saved run has no ${run.id} run`);
          await restoreRun(
            run.trainer,
            readCheckpoint(files.current, { vocabHash: this.tok.hash }),
            readCheckpoint(files.reference, { vocabHash: this.tok.hash }),
          );
          run.trainer.config = trainConfigOf(settings);
        }
        this.curves = saved.curves.slice();
      }
      const resumed = saved && `the run saved at update ${saved.updates}`;
      this.info = {
        runId: this.saves.id,
        backend: report!,
        initial: {
          source: !resumed ? source : copy ? `a copy of ${resumed} (that run is open in another tab)` : resumed,
          preset: settings.preset,
          env: settings.env,
          parameters: parameterLayout(config).totalFloats,
          random: !saved && random,
        },
        runs: this.runs.map((r) => r.id),
      };
      // The first rollout goes on screen at once, then the warm start's evaluation (update 0), from which the
      // page measures the run's change; the rest of the update waits for Play or Step.
      void this.exclusive(async () => {
        if (generation === this.generation) await this.runStage(this.runs[0], true);
        if (generation === this.generation && !saved) await this.evaluateWarmStart(generation);
      }).catch((err) => this.emit({ type: 'error', message: messageOf(err) }));
      return this.info;
    }, true);
  }

  private attachCallbacks(trainer: Trainer, id: RunId, generation: number): void {
    trainer.callbacks = {
      onTrajectory: (t, update) => {
        if (generation !== this.generation) return;
        const config = trainer.current?.config ?? trainer.config;
        this.emit({
          type: 'trajectory',
          trajectory: trajectoryView(
            this.tok,
            id,
            update + 1,
            config.groupSize,
            t,
            config,
            null,
            null,
            trainer.backend.config.contextLength,
            trainer.world.analyzerObservationTokens,
          ),
        });
      },
    };
  }

  /** Refuses settings out of the settings table's ranges (a RangeError naming the first), changing nothing. */
  async configure(settings: Settings): Promise<void> {
    if (!this.settings) return;
    const next = {
      ...settings,
      env: this.settings.env,
      preset: this.settings.preset,
      algo: this.settings.algo,
      seed: this.settings.seed,
      backend: this.settings.backend,
    };
    const config = checkConfig(trainConfigOf(next));
    this.settings = next;
    for (const r of this.runs) r.trainer.config = config;
  }

  async pause(): Promise<void> {
    this.stopRequested = true;
  }

  play(updates: number): Promise<void> {
    this.stopRequested = false;
    return this.exclusive(async () => {
      const generation = this.generation;
      this.startWaiting();
      for (let done = 0; done < updates; ) {
        const started = this.host.now();
        for (const run of this.runs) {
          if (!(await this.finishUpdate(run, generation))) return;
        }
        done++;
        const speed = this.settings?.speed ?? 0;
        const wait = speed > 0 ? 1000 / speed - (this.host.now() - started) : 0;
        if (wait > 0) await this.host.sleep(wait);
        if (this.stopRequested || generation !== this.generation) return;
      }
    });
  }

  stepUpdate(): Promise<UpdateMetrics[]> {
    this.stopRequested = false;
    return this.exclusive(async () => {
      const generation = this.generation;
      const out: UpdateMetrics[] = [];
      this.startWaiting();
      for (const run of this.runs) {
        if (!(await this.finishUpdate(run, generation, true))) break;
        out.push(this.curves[this.curves.length - 1]);
      }
      return out;
    });
  }

  stepStage(id: RunId): Promise<StageSnapshot> {
    return this.exclusive(async () => {
      const run = this.runOf(id);
      run.waitingSince = null;
      const snapshot = await this.runStage(run, true);
      if (snapshot.stage === 'optimizer') await this.afterUpdate(run);
      return snapshot;
    });
  }

  /** Every run's wait for its next update begins now (a Play or a Step). */
  private startWaiting(): void {
    const now = performance.now();
    for (const run of this.runs) run.waitingSince = now;
  }

  /** Runs the stages left in the run's open update (a new update when none is open); false when stopped. */
  private async finishUpdate(run: Run, generation: number, ignoreStop = false): Promise<boolean> {
    do {
      if (generation !== this.generation || (this.stopRequested && !ignoreStop)) return false;
      await this.runStage(run, false);
      await this.host.yieldToEvents();
    } while (run.trainer.current!.stage < STAGES.length);
    await this.afterUpdate(run);
    return true;
  }

  /** One stage of the run's open update, with what the page shows of it. */
  private async runStage(run: Run, inspect: boolean): Promise<StageSnapshot> {
    const { st, stage: next } = await advanceStage(run, this.tok, inspect);
    const snapshot = stageSnapshot(run, this.tok, st, next);
    // While playing, the page is sent what changes its views: the skills, then the scored, applied update
    // (transcripts arrive one by one during the rollout). Stepping shows every stage.
    if (inspect || next === 'skills' || next === 'optimizer') this.emit({ type: 'stage', snapshot });
    return snapshot;
  }

  /**
   * The curve's update-0 point of every run: they all start from the same weights, so one evaluation serves. A
   * start while it plays ends it at the next finished game and sends nothing, so the new run neither waits for it
   * nor gets its numbers.
   */
  private async evaluateWarmStart(generation: number): Promise<void> {
    const current = () => generation === this.generation;
    const progress = evalProgress('evaluating the warm start', (e) => this.emit(e));
    const points = await warmStartPoints(this.runs, this.tok, this.settings!.evalEpisodes, current, progress);
    if (!points) return;
    for (const point of points) {
      this.curves.push(point);
      this.emit({ type: 'update', metrics: point });
    }
    this.emit({ type: 'status', text: '' });
  }

  /** Metrics, evaluation and the periodic checkpoint of a finished update. */
  private async afterUpdate(run: Run): Promise<void> {
    const st = run.trainer.current!;
    const settings = this.settings!;
    const done = st.update + 1;
    const progress = evalProgress(`evaluating ${run.id} after update ${done}`, (e) => this.emit(e));
    const metrics = await updatePoint(run, this.tok, settings, progress);
    this.curves.push(metrics);
    this.emit({ type: 'update', metrics });
    if (metrics.skipped)
      this.emit({
        type: 'error',
        message: `${run.id} update ${done} was refused before it touched the weights: ${metrics.skipped}`,
      });
    this.emit({ type: 'status', text: '' });
    if (run === this.runs[this.runs.length - 1] && done % settings.checkpointEvery === 0) await this.save(done);
  }

  private async save(updates: number): Promise<void> {
    const settings = this.settings!;
    const runs = [];
    for (const run of this.runs) {
      const { current, reference } = await runCheckpoints(run.trainer, settings.preset, this.tok.hash);
      runs.push({ id: run.id, current: writeCheckpoint(current), reference: writeCheckpoint(reference) });
    }
    const savedAt = this.host.now();
    try {
      await this.saves.save({ settings, updates, savedAt, curves: this.curves.slice(), runs });
      this.emit({ type: 'checkpointed', update: updates, savedAt });
    } catch (err) {
      this.emit({ type: 'error', message: `could not save the run in this browser: ${messageOf(err)}` });
    }
  }

  private runOf(id: RunId): Run {
    const run = this.runs.find((r) => r.id === id) ?? this.runs[0];
    if (!run) throw new Error('no run has started');
    return run;
  }

  tokenTable(id: RunId): Promise<TokenTableExport> {
    return this.exclusive(async () => {
      const run = this.runOf(id);
      const st = run.trainer.current;
      if (!st) throw new Error('no update has run yet');
      return tokenTableOf(this.tok, run.id, st, st.lossHyper, run.lStudent);
    });
  }

  teacherCheck(id: RunId, games: number): Promise<TeacherCheckView> {
    return this.exclusive(async () => {
      if (!Number.isInteger(games) || games < 2 || games > MAX_TEACHER_GAMES)
        throw new RangeError(`the teacher check plays 2 to ${MAX_TEACHER_GAMES} games, not ${games}`);
      return runTeacherCheck(this.runOf(id), this.tok, games);
    });
  }

  exportCheckpoint(id: RunId): Promise<Uint8Array> {
    return this.exclusive(async () => {
      const run = this.runOf(id);
      const { current } = await runCheckpoints(run.trainer, this.settings!.preset, this.tok.hash);
      return writeCheckpoint(current);
    });
  }

  importCheckpoint(bytes: Uint8Array): Promise<ImportedCheckpoint> {
    this.stopRequested = true;
    return this.exclusive(async () => {
      const ck: Checkpoint = readImportedCheckpoint(bytes, this.tok.hash, this.settings!.env);
      const config = this.runs[0]?.backend.config;
      if (!config) throw new Error('no run has started');
      const preset = this.settings!.preset;
      const difference = configDifference(ck.config, config);
      if (difference) throw new Error(`the checkpoint's model differs from this run's ${preset} preset: ${difference}`);
      // A run checkpoint (the page's export, `seed train`'s) carries its counts: the run goes on from its
      // update, and the curves of the run it replaces are dropped. Other checkpoints (a warm start) have none.
      // Its metadata passes the check `seed train --resume` makes.
      const counts = ck.metadata.stage === 'rl' ? runMetadata(ck, preset) : null;
      const unusable = unusableWeights(ck.config, ck.params, 'the checkpoint');
      if (unusable) throw new Error(unusable);
      if (counts) this.curves = [];
      const generation = this.generation;
      for (const run of this.runs) {
        await run.backend.writeParameters(ck.params);
        const n = ck.params.length;
        await run.backend.writeOptimizerState(
          ck.optimizer ?? { m: new Float32Array(n), v: new Float32Array(n), step: 0 },
        );
        const trainer = trainerOnNewWeights(run, this.tok, counts);
        this.attachCallbacks(trainer, run.id, generation);
        run.trainer = trainer;
        run.lStudent = null;
        run.step = null;
      }
      return { updates: this.runs[0].trainer.updates, fromCheckpoint: counts !== null };
    });
  }

  savedRuns(): Promise<SavedRuns> {
    return this.saves.list();
  }

  async discardSavedRun(id: string): Promise<void> {
    await this.saves.discard(id);
  }
}
