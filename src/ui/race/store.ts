// A race: GRPO and a hindsight arm trained side by side, each by an engine worker of its own on half the
// cores (plan.ts), from the page's settings as they were when the race started. The page's own run is
// paused while the race plays; playing the page's run pauses the race, so that the two never share the
// cores. An arm whose worker fails, or whose device is lost, ends the race: the other arm is stopped too and
// the curves so far stay on the chart and in the CSV. The workers are not state, so they live beside the store.
import { create } from 'zustand';
import { messageOf } from '../../common/errors.ts';
import type { EngineEvent } from '../../worker/protocol.ts';
import type { Settings } from '../../rl/page_settings.ts';
import type { RaceCurves } from '../curves_csv.ts';
import { startEngine, type Engine } from '../engine_client.ts';
import { armAfterEvent, armStarted, newArm, type RaceArm } from './arm.ts';
import { coresHere, racePlan } from './plan.ts';
import { usePlayground } from '../store.ts';

type RacePhase = 'idle' | 'starting' | 'playing' | 'paused' | 'stopped' | 'failed';

interface RaceState {
  phase: RacePhase;
  /** [GRPO, the hindsight arm]. */
  arms: RaceArm[];
  /** The page's settings when the race started: both arms run with them (each with its own algorithm). */
  settings: Settings | null;
  /** Why the race failed, or why it paused when the race did not pause itself. */
  message: string | null;
  start: () => Promise<void>;
  play: () => Promise<void>;
  pause: () => Promise<void>;
  stop: () => void;
}

let workers: { engine: Engine; worker: Worker }[] = [];
/** Bumped when a race starts, stops or fails: events and answers of an older race are dropped. */
let generation = 0;
let unwatchPage: () => void = () => undefined;

export const useRace = create<RaceState>()((set, get) => ({
  phase: 'idle',
  arms: [],
  settings: null,
  message: null,

  start: async () => {
    if (get().phase === 'starting' || get().phase === 'playing') return;
    end();
    const page = usePlayground.getState();
    const plan = racePlan(page.settings, coresHere());
    const race = ++generation;
    set({ phase: 'starting', arms: plan.arms.map(newArm), settings: page.settings, message: null });
    await page.pause();
    watchPage();
    workers = plan.arms.map((_, i) => {
      const started = startEngine((event) => onEvent(race, i, event), plan.threads, false);
      started.worker.addEventListener('error', (e) =>
        fail(race, i, `its training worker failed: ${e.message || 'no message'}`),
      );
      return started;
    });
    const answers = await Promise.allSettled(workers.map((w, i) => w.engine.start(plan.settings[i], null)));
    if (race !== generation) return;
    const infos = answers.map((a) => (a.status === 'fulfilled' ? a.value : null));
    const refused = infos.indexOf(null);
    if (refused >= 0) return fail(race, refused, messageOf((answers[refused] as PromiseRejectedResult).reason));
    set((s) => ({ arms: s.arms.map((arm, i) => armStarted(arm, infos[i]!)), phase: 'paused' }));
    await get().play();
  },

  play: async () => {
    if (get().phase !== 'paused') return;
    const race = generation;
    await usePlayground.getState().pause();
    set({ phase: 'playing', message: null });
    // An arm that fails ends the race at once, while the other is still playing.
    await Promise.all(
      workers.map((w, i) =>
        w.engine.play(Number.MAX_SAFE_INTEGER).catch((err: unknown) => fail(race, i, messageOf(err))),
      ),
    );
    if (race === generation) set({ phase: 'paused' });
  },

  pause: async () => {
    if (get().phase !== 'playing') return;
    await Promise.all(workers.map((w) => w.engine.pause()));
  },

  stop: () => {
    if (get().phase === 'idle') return;
    end();
    set({ phase: 'stopped' });
  },
}));

/** The race's arms for the curves CSV (rows tagged race); null before any race. */
export function raceCurves(): RaceCurves | null {
  const { arms, settings } = useRace.getState();
  return settings ? { seed: settings.seed, arms: Object.fromEntries(arms.map((a) => [a.algo, a.curve])) } : null;
}

/** Ends the race's workers and stops watching the page's run; the curves stay. */
function end(): void {
  generation++;
  for (const w of workers) w.worker.terminate();
  workers = [];
  unwatchPage();
  unwatchPage = () => undefined;
}

function onEvent(race: number, arm: number, event: EngineEvent): void {
  if (race !== generation) return;
  const { arms } = useRace.getState();
  const next = armAfterEvent(arms[arm], event);
  // Most events (transcripts, stages) leave the arm as it was: nothing to render.
  if (next.arm !== arms[arm]) useRace.setState({ arms: arms.map((a, i) => (i === arm ? next.arm : a)) });
  if (next.ended !== null) fail(race, arm, next.ended);
}

function fail(race: number, arm: number, message: string): void {
  if (race !== generation) return;
  const algo = useRace.getState().arms[arm]?.algo ?? 'an';
  end();
  useRace.setState({
    phase: 'failed',
    message: `The ${algo} arm stopped: ${message}. The other arm was stopped with it; the curves so far are kept.`,
  });
}

/** Playing the page's own run pauses the race: the two would share the cores. */
function watchPage(): void {
  unwatchPage = usePlayground.subscribe((s, before) => {
    if (s.engine.state !== 'playing' || before.engine.state === 'playing' || useRace.getState().phase !== 'playing')
      return;
    useRace.setState({
      message:
        "The race paused: the page's own run is playing, and the two would share the cores. Play the race to go on (it pauses the page's run).",
    });
    void useRace.getState().pause();
  });
}
