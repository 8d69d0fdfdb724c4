// Progress on stderr: a cli-progress bar on a terminal, a plain line every 10% otherwise (a log file, a
// pipe, a CI job). Both show the count, the time elapsed and the estimated time left.
import { createRequire } from 'node:module';

export interface Bar {
  update(value: number, payload?: Record<string, string>): void;
  increment(): void;
  stop(): void;
}

interface BarOptions {
  /** The count the bar starts at (a resumed run's updates done); the time left is estimated from the rest. */
  start?: number;
  /** A word before the count: "update 3/12". */
  unit?: string;
  /** Where the bar goes: stderr, or a test's stream. */
  stream?: Pick<NodeJS.WriteStream, 'write' | 'isTTY'>;
}

/** A duration for people: "7s", "2m05s", "1h02m"; "?" when unknown (no progress yet, or not finite). */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${pad(s % 60)}s`;
  return `${Math.floor(s / 3600)}h${pad(Math.floor((s % 3600) / 60))}m`;
}

/** Seconds left at the mean rate since the bar started; NaN before any progress. */
export function secondsLeft(value: number, total: number, start: number, elapsedSeconds: number): number {
  const done = value - start;
  return done > 0 ? (elapsedSeconds * Math.max(0, total - value)) / done : NaN;
}

/** The line shown when stderr is not a terminal: "label: update 3/12, 0m41s elapsed, ETA 2m03s, info". */
export function progressLine(
  label: string,
  value: number,
  total: number,
  elapsedSeconds: number,
  etaSeconds: number,
  unit = '',
  info = '',
): string {
  const count = `${unit ? `${unit} ` : ''}${value}/${total}`;
  const eta = value >= total ? 'done' : `ETA ${formatDuration(etaSeconds)}`;
  return `${label}: ${count}, ${formatDuration(elapsedSeconds)} elapsed, ${eta}${info ? `, ${info}` : ''}`;
}

/** A progress bar on stderr; when stderr is not a terminal, a line at the start and every 10% instead. */
export function progressBar(label: string, total: number, options: BarOptions = {}): Bar {
  const start = options.start ?? 0;
  const unit = options.unit ?? '';
  const stream = options.stream ?? process.stderr;
  if (!stream.isTTY) {
    const t0 = performance.now();
    let value = start;
    let shown = -1;
    const show = (info = '') => {
      const tenth = total > 0 ? Math.floor((10 * value) / total) : 10;
      if (tenth > shown) {
        shown = tenth;
        const elapsed = (performance.now() - t0) / 1000;
        stream.write(
          `${progressLine(label, value, total, elapsed, secondsLeft(value, total, start, elapsed), unit, info)}\n`,
        );
      }
    };
    show();
    return {
      update(v, payload) {
        value = v;
        show(payload?.info);
      },
      increment() {
        value++;
        show();
      },
      stop() {},
    };
  }
  const { SingleBar, Presets } = createRequire(import.meta.url)('cli-progress') as {
    SingleBar: new (
      options: object,
      preset: object,
    ) => Bar & { start(total: number, value: number, payload?: object): void };
    Presets: { shades_classic: object };
  };
  // cli-progress estimates the time left from its last values ({eta}, in seconds, 'NULL' or 'INF' when it
  // cannot); formatDuration writes it and the elapsed time as the plain lines do.
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] ${unit ? `${unit} ` : ''}{value}/{total}, {duration_formatted} elapsed, ETA {eta_formatted}  {info}`,
      formatTime: (t: number | string) => formatDuration(Number(t)),
      stream,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  bar.start(total, start, { info: '' });
  return bar;
}
