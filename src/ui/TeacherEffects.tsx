// The recorded run's teacher checks in the teacher panel: the block effect and the content effect of each arm
// that checked the teacher, over updates, as two small charts (teacher_effects.ts), a colour and a dash per arm as
// in the page's other charts; nothing where the page's world's record kept no checks.
import { armName } from './setting_labels.ts';
import { ALGO_COLOURS, METRIC_DASH } from './charts.ts';
import { useRecordedOf } from './recorded_store.ts';
import {
  EFFECT_KINDS,
  linePoints,
  teacherEffectLines,
  type EffectKind,
  type TeacherEffectLines,
} from './teacher_effects.ts';
import { usePageWorld } from './world.ts';

const WIDTH = 200;
const HEIGHT = 56;
/** Room around the plot for the points' dots and the lines' width. */
const PAD = 4;

const TITLES: Record<EffectKind, string> = {
  block: 'Block effect: another game’s skill − none',
  content: 'Content effect: own skill − another game’s',
};

const points = (x: number) => `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}`;

function EffectChart({ kind, effects }: { kind: EffectKind; effects: TeacherEffectLines }) {
  const { updates, range } = effects;
  const place = (ps: readonly [number, number][]) =>
    linePoints(ps, updates, range, WIDTH - 2 * PAD, HEIGHT - 2 * PAD).map(([x, y]) => [x + PAD, y + PAD]);
  const [, zero] = place([[updates[0], 0]])[0];
  const lines = effects.lines[kind];
  return (
    <figure className="teacher-effect" data-testid={`teacher-effect-${kind}`} data-lines={lines.length}>
      <figcaption>{TITLES[kind]}</figcaption>
      <svg
        width={WIDTH}
        height={HEIGHT}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${TITLES[kind]}, points by update: ${lines.map((l) => `${armName(l.algo)} ${l.points.map(([u, v]) => `${points(v)} after update ${u}`).join(', ')}`).join('; ')}`}
      >
        <line x1={PAD} x2={WIDTH - PAD} y1={zero} y2={zero} className="teacher-effect-zero" />
        {lines.map((l, i) => {
          const xy = place(l.points);
          return (
            <g key={l.algo} data-algo={l.algo} stroke={ALGO_COLOURS[l.algo]} fill={ALGO_COLOURS[l.algo]}>
              <polyline
                points={xy.map(([x, y]) => `${x},${y}`).join(' ')}
                fill="none"
                strokeWidth={1.5}
                strokeDasharray={METRIC_DASH[i % METRIC_DASH.length].join(' ') || undefined}
                data-values={l.points.map(([, v]) => v).join(',')}
              />
              {xy.map(([x, y], k) => (
                <circle key={l.points[k][0]} cx={x} cy={y} r={2} />
              ))}
            </g>
          );
        })}
      </svg>
      <div className="teacher-effect-axis muted">
        <span>update {updates[0]}</span>
        <span>
          {points(range[0])} to {points(range[1])} points
        </span>
        <span>update {updates[1]}</span>
      </div>
    </figure>
  );
}

export function TeacherEffects() {
  const world = usePageWorld();
  const recorded = useRecordedOf(world);
  const effects = recorded.state === 'ready' ? teacherEffectLines(recorded.run) : null;
  if (!effects) return null;
  const arms = effects.lines.block.map((l) => l.algo);
  return (
    <div className="teacher-effects" data-testid="teacher-effects">
      <h3>The recorded run’s teacher checks, by update</h3>
      <div className="teacher-effect-charts">
        {EFFECT_KINDS.map((kind) => (
          <EffectChart key={kind} kind={kind} effects={effects} />
        ))}
      </div>
      <p className="muted">
        {arms.map((a, i) => (
          <span key={a} className="teacher-effect-arm">
            <span className="swatch" style={{ background: ALGO_COLOURS[a] }} /> {armName(a)}
            {i < arms.length - 1 ? ', ' : ''}
          </span>
        ))}
        : the own skill’s lead over no skill taken apart, points, mean over the record’s seeds. A block of advice that
        helps whatever it says shows in the block effect; what the skill’s facts add, in the content effect.
      </p>
    </div>
  );
}
