// One race arm as the page keeps it, as a pure function of (arm, event): its curve gains a point per update,
// a refused update or a failed save is noted without stopping it, and a lost device ends it (the race then
// stops its other arm too).
import type { Algo } from '../../rl/arms.ts';
import type { EngineEvent, EngineInfo, UpdateMetrics } from '../../worker/protocol.ts';

export interface RaceArm {
  algo: Algo;
  curve: UpdateMetrics[];
  /** How the arm trains, once its worker started: "CPU, 4 threads" or "WebGPU"; null before. */
  backend: string | null;
  /** The last problem the arm reported that did not stop it. */
  note: string | null;
}

export function newArm(algo: Algo): RaceArm {
  return { algo, curve: [], backend: null, note: null };
}

export function armStarted(arm: RaceArm, info: EngineInfo): RaceArm {
  const { backend } = info;
  const threads = backend.cpuThreads?.threads;
  const text =
    backend.kind === 'webgpu'
      ? 'WebGPU'
      : `CPU, ${threads ?? 1} thread${threads === 1 || threads === undefined ? '' : 's'}`;
  return { ...arm, backend: text };
}

/** The arm after an event of its worker, and why the arm ended, if it did. */
export function armAfterEvent(arm: RaceArm, event: EngineEvent): { arm: RaceArm; ended: string | null } {
  switch (event.type) {
    case 'update':
      return { arm: { ...arm, curve: [...arm.curve, event.metrics] }, ended: null };
    case 'error':
      return { arm: { ...arm, note: event.message }, ended: null };
    case 'lost':
      return { arm, ended: event.message };
    default:
      return { arm, ended: null };
  }
}
