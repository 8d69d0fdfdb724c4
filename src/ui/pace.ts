// What the page is waiting for, in words: the evaluation in progress and how far it is (the engine's status), and
// how fast the run trains, in updates per second over its last updates as the engine timed them (updateMs: each
// update's whole wait, its evaluation included).
import type { UpdateMetrics } from '../worker/protocol.ts';

/** How many of the run's last timed updates its pace is taken over. */
const PACE_UPDATES = 10;

/** The run's last `count` updates whose wait the engine timed (updateMs), oldest first. */
export function timedUpdates(curve: readonly UpdateMetrics[], count = PACE_UPDATES): UpdateMetrics[] {
  const timed = curve.filter((m) => m.update >= 1 && m.updateMs !== null && m.updateMs !== undefined);
  return timed.slice(-count);
}

/** Updates per second over the run's last timed updates, evaluations included; null before the first. */
export function updatesPerSecond(curve: readonly UpdateMetrics[], count = PACE_UPDATES): number | null {
  const timed = timedUpdates(curve, count);
  const ms = timed.reduce((sum, m) => sum + (m.updateMs ?? 0), 0);
  return timed.length === 0 || ms <= 0 ? null : (1000 * timed.length) / ms;
}

/** A wait in words: "about 40 s", "about 2 min 10 s", "about 1 h 5 min". */
export function aboutDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `about ${s} s`;
  if (s < 3600) return `about ${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const minutes = Math.round(s / 60);
  return `about ${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

const rateText = (rate: number) => `${rate < 10 ? rate.toFixed(2) : rate.toFixed(1)} updates/s`;

/**
 * The line that says what the run is waiting for: the engine's status (an evaluation and its games so far), and
 * while training its pace; empty when it waits for nothing.
 */
export function waitingText(status: string, playing: boolean, rate: number | null): string {
  const pace = !playing
    ? ''
    : rate === null
      ? `training: timing the first update`
      : `training at ${rateText(rate)} (the last updates, their evaluations included)`;
  const parts = [status, pace].filter((p) => p !== '');
  if (parts.length === 0) return '';
  const text = parts.join('; ');
  return `${text[0].toUpperCase()}${text.slice(1)}…`;
}
