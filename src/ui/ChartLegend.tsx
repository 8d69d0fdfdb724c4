// A chart's legend as chips: one per series, with its colour and dash drawn as a short line, its label and its
// value (at the hovered update, else its last one), pressed while the series is shown. A click hides or shows
// the series.
import type { SeriesSpec } from './charts.ts';

interface LegendChip {
  series: SeriesSpec;
  shown: boolean;
  value: string;
}

export function ChartLegend({
  chips,
  at,
  onToggle,
}: {
  chips: LegendChip[];
  at: string;
  onToggle: (index: number) => void;
}) {
  if (chips.length === 0) return null;
  return (
    <div className="chart-legend" data-testid="chart-legend">
      <span className="muted chart-legend-at">{at}</span>
      {chips.map(({ series: s, shown, value }, i) => (
        <button
          key={s.label}
          type="button"
          className={`chip ${shown ? '' : 'chip-off'}`}
          aria-pressed={shown}
          title={shown ? 'hide this series' : 'show this series'}
          onClick={() => onToggle(i)}
          data-testid="series-chip"
          data-label={s.label}
        >
          <svg width="24" height="8" aria-hidden="true">
            <line
              x1="1"
              y1="4"
              x2="23"
              y2="4"
              stroke={s.colour}
              strokeOpacity={s.alpha}
              strokeWidth={Math.max(2, s.width)}
              strokeDasharray={s.dash.join(' ')}
            />
          </svg>{' '}
          {s.label} <span className="chip-value">{value}</span>
        </button>
      ))}
    </div>
  );
}
