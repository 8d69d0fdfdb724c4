// Reads a Chromium CPU profile (the DevTools protocol's Profiler.stop answer) as a table of the functions the
// main thread spent its time in: each function's own time (self) and its time with everything it called
// (total, counted once per sample however often the function recurses). A production build names the page's
// functions only where it is built without minifying (`npx vite build --minify false`).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

interface FunctionTime {
  name: string;
  selfMs: number;
  totalMs: number;
}

/** Time that is not the page's JavaScript: the profiler's own entries for idle time and the garbage collector. */
const IDLE = new Set(['(idle)', '(program)']);

function functionKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split('/').pop() ?? '';
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

/** The functions by total time, longest first, and the busy time the profile covers (idle left out). */
function functionTimes(profile: CpuProfile): { busyMs: number; functions: FunctionTime[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times = new Map<string, FunctionTime>();
  const at = (key: string) => {
    let t = times.get(key);
    if (!t) {
      t = { name: key, selfMs: 0, totalMs: 0 };
      times.set(key, t);
    }
    return t;
  };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let busyMs = 0;
  for (let i = 0; i < samples.length; i++) {
    // A sample's time is the gap to the next sample.
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const leaf = byId.get(samples[i]);
    if (!leaf || IDLE.has(leaf.callFrame.functionName)) continue;
    busyMs += ms;
    at(functionKey(leaf)).selfMs += ms;
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id)!;
      if (node.callFrame.functionName === '(root)') break;
      const key = functionKey(node);
      if (seen.has(key)) continue;
      seen.add(key);
      at(key).totalMs += ms;
    }
  }
  return { busyMs, functions: [...times.values()].sort((a, b) => b.totalMs - a.totalMs) };
}

/** The profile's busiest functions as a text table. */
export function profileSummary(profile: CpuProfile, rows = 40): string {
  const { busyMs, functions } = functionTimes(profile);
  const lines = functions
    .slice(0, rows)
    .map((f) => `${f.totalMs.toFixed(0).padStart(7)} ${f.selfMs.toFixed(0).padStart(7)}  ${f.name}`);
  const bySelf = [...functions].sort((a, b) => b.selfMs - a.selfMs).slice(0, 20);
  return [
    `busy ${busyMs.toFixed(0)} ms of ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms`,
    '  total    self  function (by total)',
    ...lines,
    '  total    self  function (by self)',
    ...bySelf.map((f) => `${f.totalMs.toFixed(0).padStart(7)} ${f.selfMs.toFixed(0).padStart(7)}  ${f.name}`),
  ].join('\n');
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  /** The thread's CPU time in the event: unlike dur, it does not grow while other work holds the cores. */
  tdur?: number;
  args?: { name?: string };
}

/**
 * Where the page's main thread spent a Chromium trace (categories toplevel and devtools.timeline): for each
 * kind of event there (RunTask: a task at all; style, layout, paint, script, ...), its wall time and the
 * thread's CPU time, by CPU time. Events nest (a script that forces a layout holds it), so the rows overlap.
 */
export function traceSummary(trace: { traceEvents: TraceEvent[] }, rows = 25): string {
  const main = trace.traceEvents.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const totals = new Map<string, { ms: number; cpuMs: number; count: number }>();
  for (const e of trace.traceEvents) {
    if (e.ph !== 'X' || e.dur === undefined || !main.some((m) => m.pid === e.pid && m.tid === e.tid)) continue;
    const t = totals.get(e.name) ?? { ms: 0, cpuMs: 0, count: 0 };
    t.ms += e.dur / 1000;
    t.cpuMs += (e.tdur ?? 0) / 1000;
    t.count++;
    totals.set(e.name, t);
  }
  const sorted = [...totals.entries()].sort((a, b) => b[1].cpuMs - a[1].cpuMs).slice(0, rows);
  const line = (name: string, t: { ms: number; cpuMs: number; count: number }) =>
    `${t.cpuMs.toFixed(0).padStart(7)} ${t.ms.toFixed(0).padStart(7)} ${String(t.count).padStart(6)}  ${name}`;
  return ['    cpu    wall  count  event on the main thread (ms)', ...sorted.map(([name, t]) => line(name, t))].join(
    '\n',
  );
}
