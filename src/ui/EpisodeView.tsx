import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { RunId, SkillView, TrajectoryView } from '../worker/protocol.ts';
import type { SymbolName } from './explain.ts';
import { Sym } from './Guide.tsx';
import {
  colourOf,
  colourScale,
  filterTrajectories,
  isForced,
  keepSelection,
  shownBatch,
  tokenValue,
  type ColourBy,
  type ColourScale,
  type OutcomeFilter,
} from './run_record.ts';
import { armName } from './setting_labels.ts';
import { SkillUsedInstead } from './SkillUsedInstead.tsx';
import { TRUTH_TITLE, truthValue, truthWords } from './skill_words.ts';
import { usePlayground } from './store.ts';
import { usePageWorld } from './world.ts';
import { viewOf } from '../worlds/views.ts';
import type { WorldView } from './world_view.ts';

const COLOUR_LABELS: Record<ColourBy, string> = {
  delta: 'Δ (probability shift)',
  gate: 'gate g',
  coef: 'loss coefficient c',
  kl: 'KL(student ‖ teacher) (seed-exact)',
};

export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  return Math.abs(x) >= 1e-3 && Math.abs(x) < 1e4 ? x.toFixed(4) : x.toExponential(3);
}

/** What a skill's text says it is, by its first word, whatever the outcome of its game. */
export function skillKindLabel(kind: SkillView['kind']): string {
  return kind === 'workflow' ? 'workflow' : kind === 'avoid' ? 'avoid-rule' : 'neither kind';
}

export function EpisodeView() {
  const view = usePlayground((s) => s.view);
  const info = usePlayground((s) => s.info);
  const world = viewOf(usePageWorld());
  const playing = usePlayground((s) => s.engine.state === 'playing');
  // The shown batch alone, not the whole record: while a run plays, the trajectories of the update in
  // progress arrive at every render of the page, and the view shows the last completed update instead.
  const batch = usePlayground((s) => shownBatch(s.record, s.view.run, s.engine.state === 'playing').trajectories);
  const update = usePlayground((s) => shownBatch(s.record, s.view.run, s.engine.state === 'playing').update);
  const showsCompleted = usePlayground((s) => s.record.completed[s.view.run] !== undefined);
  const runs = info?.runs ?? [];
  const setView = usePlayground((s) => s.setView);
  const shown = filterTrajectories(batch, view.filter);
  const selected = keepSelection(shown, view.selected);
  const trajectory = shown.find((t) => t.index === selected) ?? null;
  const scale = useMemo(() => colourScale(batch, view.colourBy), [batch, view.colourBy]);
  const range = scale.range;

  return (
    <section className="panel" aria-labelledby="episodes-title" data-testid="episodes">
      <div className="panel-head">
        <h2 id="episodes-title">
          Episodes{' '}
          {update !== undefined ? (
            <small data-testid="episodes-update">
              update {update}
              {playing && showsCompleted ? ', the last completed' : ''}
            </small>
          ) : null}
        </h2>
        <div className="button-row">
          {runs.length > 1 ? (
            <label>
              Run{' '}
              <select
                value={view.run}
                onChange={(e) => setView({ run: e.target.value as RunId, selected: null })}
                data-testid="view-run"
              >
                {runs.map((r) => (
                  <option key={r} value={r}>
                    {armName(r)}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label>
            Show{' '}
            <select
              value={view.filter}
              onChange={(e) => setView({ filter: e.target.value as OutcomeFilter })}
              data-testid="filter"
            >
              <option value="all">all</option>
              <option value="success">successes</option>
              <option value="failure">failures</option>
            </select>
          </label>
          <label>
            Colour by{' '}
            <select
              value={view.colourBy}
              onChange={(e) => setView({ colourBy: e.target.value as ColourBy })}
              data-testid="colour-by"
            >
              {(Object.keys(COLOUR_LABELS) as ColourBy[]).map((k) => (
                <option key={k} value={k}>
                  {COLOUR_LABELS[k]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {batch.length === 0 ? <p className="hint">The first rollout appears here as each episode ends.</p> : null}
      <div className="episodes">
        <ol className="trajectory-list" aria-label="Trajectories of the update" data-testid="trajectory-list">
          {shown.map((t) => (
            <li key={t.index}>
              <button
                type="button"
                className={`trajectory-pick ${t.index === selected ? 'selected' : ''}`}
                aria-pressed={t.index === selected}
                onClick={() => setView({ selected: t.index })}
                data-testid="trajectory-pick"
                data-index={t.index}
                data-won={t.won}
              >
                <span className={t.won ? 'ok' : 'bad'}>{t.won ? '✓' : '✗'}</span> task {t.task + 1}.{t.episode + 1}{' '}
                <span className="muted">R {t.reward.toFixed(1)}</span>
              </button>
            </li>
          ))}
        </ol>
        {trajectory ? (
          <div className="episode-detail">
            <Transcript t={trajectory} colourBy={view.colourBy} range={range} world={world} />
            <SkillCard t={trajectory} />
          </div>
        ) : null}
      </div>
      <Legend
        colourBy={view.colourBy}
        scale={scale}
        scored={batch.some((t) => t.scores !== null && t.scores.gate.length > 0 && !Number.isNaN(t.scores.gate[0]))}
      />
    </section>
  );
}

function Legend({ colourBy, scale, scored }: { colourBy: ColourBy; scale: ColourScale; scored: boolean }) {
  const { range, largest } = scale;
  const saturates = colourBy !== 'gate' && largest > range[1];
  const stops = [0, 0.25, 0.5, 0.75, 1].map((f) => range[0] + f * (range[1] - range[0]));
  const allZero = colourBy !== 'gate' && range[1] < 1e-11;
  return (
    <figure
      className="legend"
      aria-label={`Colour legend: ${COLOUR_LABELS[colourBy]} from ${fmt(range[0])} to ${fmt(range[1])}`}
      data-testid="legend"
    >
      <span>{COLOUR_LABELS[colourBy]}:</span>
      {!scored ? <span className="muted">the colours come with stage 5 (loss) of the update</span> : null}
      {scored && allZero ? <span className="legend-swatch">0 for every decision token of this update</span> : null}
      {!scored || allZero
        ? null
        : stops.map((v) => (
            <span key={v} className="legend-swatch" style={{ background: colourOf(v, range, colourBy) }}>
              {fmt(v)}
            </span>
          ))}
      {scored && !allZero && colourBy !== 'gate' ? (
        <span className="muted" data-testid="legend-scale">
          the scale ends at the 95th percentile of |value| over the update’s decision tokens
          {saturates ? `; larger values (up to ${fmt(largest)}) show its end colour` : ''}
        </span>
      ) : null}
      <span className="muted">
        <span className="tok forced">grey</span> tokens were forced (the decoding mask allowed them alone: Delta 0, no
        gradient); unscored tokens are outlined; hover or focus a token for its numbers
      </span>
    </figure>
  );
}

function tokenNumbers(t: TrajectoryView, k: number): [string, number][] {
  const rows: [string, number][] = [['l_old', t.lOld[k]]];
  const s = t.scores;
  if (s) {
    rows.push(
      ['l_student', s.lStudent[k]],
      ['l_skill', s.lSkill[k]],
      ['l_ref', s.lRef[k]],
      ['Δ', s.delta[k]],
      ['gate', s.gate[k]],
      ['coef', s.coef[k]],
      ['  grpo', s.coefGrpo[k]],
      ['  opd', s.coefOpd[k]],
      ['  kl', s.coefKl[k]],
      ['KL(student ‖ teacher)', s.divergence[k]],
      ['mask', s.mask[k]],
      ['opd_mask', s.opdMask[k]],
    );
  }
  return rows;
}

/** The token an arrow key moves to: Left and Right by token, Up and Down by command, Home and End to the ends. */
function tokenAfterKey(t: TrajectoryView, k: number, key: string): number | null {
  const last = t.tokens.length - 1;
  const step = t.steps.findIndex((s) => k >= s.tokenStart && k < s.tokenStart + s.tokenCount);
  switch (key) {
    case 'ArrowRight':
      return Math.min(last, k + 1);
    case 'ArrowLeft':
      return Math.max(0, k - 1);
    case 'ArrowDown':
      return step + 1 < t.steps.length ? t.steps[step + 1].tokenStart : last;
    case 'ArrowUp':
      return step > 0 ? t.steps[step - 1].tokenStart : 0;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/** A page of the game: read into its parts where the world's view does (the shop's), else the text it is. */
function Observation({ text, view }: { text: string; view: WorldView }) {
  return view.Page ? <view.Page text={text} /> : <p className="observation">{text}</p>;
}

function Transcript({
  t,
  colourBy,
  range,
  world,
}: {
  t: TrajectoryView;
  colourBy: ColourBy;
  range: [number, number];
  world: WorldView;
}) {
  const [focus, setFocus] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const k = focus !== null && focus < t.tokens.length ? focus : null;
  // One tab stop for all the tokens (roving tabindex): the one last shown, else the first; arrows move within.
  const tabStop = k ?? 0;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = (e.target as HTMLElement).dataset.k;
    if (at === undefined) return;
    const next = tokenAfterKey(t, Number(at), e.key);
    if (next === null) return;
    e.preventDefault();
    box.current?.querySelector<HTMLElement>(`.tok[data-k="${next}"]`)?.focus();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the arrow keys move the roving tab stop between the tokens inside, whose keys bubble here
    <div
      className="transcript"
      data-testid="transcript"
      data-index={t.index}
      data-won={t.won}
      ref={box}
      onKeyDown={onKeyDown}
    >
      <p className="task-line">
        <strong>Task:</strong> <span data-testid="transcript-goal">{t.goal}</span>{' '}
        <span className="muted">({t.taskType})</span>{' '}
        <span className={t.won ? 'ok' : 'bad'} data-testid="transcript-outcome">
          {t.won ? 'success' : 'failure'}
        </span>{' '}
        <span className="muted">
          reward {t.reward.toFixed(1)}, {t.invalidSteps} invalid, A = {t.advantage === null ? '—' : fmt(t.advantage)}
        </span>
      </p>
      <Observation text={t.opening} view={world} />
      {t.steps.map((step, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a transcript's steps never change order, so a step is its place
        <div key={i} className="step" data-testid="transcript-step">
          <div className="command">
            <span aria-hidden="true">&gt; </span>
            {Array.from({ length: step.tokenCount }, (_, j) => {
              const idx = step.tokenStart + j;
              const forced = isForced(t, idx);
              const v = forced ? null : tokenValue(t, idx, colourBy);
              const unscored = tokenValue(t, idx, colourBy) === null;
              const label =
                (forced ? 'forced, ' : '') +
                tokenNumbers(t, idx)
                  .map(([name, x]) => `${name.trim()} ${fmt(x)}`)
                  .join(', ');
              const shown = world.commandToken?.(t.tokens, idx, j === 0) ?? { text: t.tokens[idx], glued: false };
              return (
                // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useAriaPropsSupportedByRole: a token is a focusable piece of text that shows its numbers when hovered or focused, and its label says them
                <span
                  key={idx}
                  className={`tok ${unscored ? 'unscored' : forced ? 'forced' : ''}${shown.glued ? ' glued' : ''}`}
                  tabIndex={idx === tabStop ? 0 : -1}
                  style={v === null ? undefined : { background: colourOf(v, range, colourBy) }}
                  aria-label={`${t.tokens[idx]}: ${label}`}
                  title={label}
                  data-k={idx}
                  data-forced={forced}
                  data-delta={t.scores ? t.scores.delta[idx] : undefined}
                  data-gate={t.scores ? t.scores.gate[idx] : undefined}
                  data-coef={t.scores ? t.scores.coef[idx] : undefined}
                  onMouseEnter={() => setFocus(idx)}
                  onFocus={() => setFocus(idx)}
                >
                  {shown.text}
                </span>
              );
            })}
            {step.valid ? null : <span className="bad"> (invalid)</span>}
          </div>
          <Observation text={step.observation} view={world} />
        </div>
      ))}
      <div className="token-detail" aria-live="polite" data-testid="token-detail">
        {k === null ? (
          <span className="muted">
            Hover or focus a command token to see its numbers (Tab to the tokens, then the arrow keys).
          </span>
        ) : (
          <>
            <strong>“{t.tokens[k]}”</strong>
            <dl className="facts compact">
              {tokenNumbers(t, k).map(([name, x]) => (
                <div key={name} className="fact">
                  <dt>
                    <Sym name={name.trim() as SymbolName}>{name}</Sym>
                  </dt>
                  <dd data-name={name.trim()}>{fmt(x)}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </div>
    </div>
  );
}

function SkillCard({ t }: { t: TrajectoryView }) {
  const skill = t.skill;
  return (
    <aside className="skill-card" aria-label="Hindsight skill" data-testid="skill-card" data-index={t.index}>
      <h3>Skill the policy wrote</h3>
      {skill ? (
        <>
          <p>
            <span
              className="skill-kind"
              data-testid="skill-kind"
              data-kind={skill.kind ?? ''}
              title="the kind its text states by its first word"
            >
              {skillKindLabel(skill.kind)}
            </span>
            {' · '}
            <span
              className={skill.outcome === 'success' ? 'ok' : 'bad'}
              data-testid="skill-outcome"
              title="the outcome of the game the analyzer was told"
            >
              written after a {skill.outcome}
            </span>
            {' · '}
            <span
              className={skill.valid ? 'ok' : 'bad'}
              data-testid="skill-valid"
              data-valid={skill.valid}
              title="it parses under the world's skill grammar and is long enough to distil: nothing about whether it is true"
            >
              {skill.valid ? 'well formed' : `not used: ${skill.reason ?? 'not well formed'}`}
            </span>
            {skill.truth ? (
              <>
                {' · '}
                <span
                  className={truthWords(skill.truth).tone}
                  data-testid="skill-truth"
                  data-truth={truthValue(skill.truth)}
                  title={TRUTH_TITLE}
                >
                  {truthWords(skill.truth).text}
                </span>
              </>
            ) : null}
            {skill.repeats !== null ? (
              <>
                {' · '}
                <span
                  className="bad"
                  data-testid="skill-degenerate"
                  title={`it repeats “${skill.repeats}” right after itself`}
                >
                  degenerate (repeats a phrase)
                </span>
              </>
            ) : null}
          </p>
          {skill.origin === 'library' ? (
            <p className="muted">From the static library, written once by the warm-start policy.</p>
          ) : null}
          <blockquote data-testid="skill-text">{skill.text || '(empty)'}</blockquote>
          {skill.usedInstead ? <SkillUsedInstead used={skill.usedInstead} /> : null}
          {skill.prompt ? (
            <details>
              <summary>Analyzer prompt</summary>
              <pre className="prompt" data-testid="skill-prompt">
                {skill.prompt}
              </pre>
            </details>
          ) : null}
        </>
      ) : (
        <p className="hint">{t.run === 'grpo' ? 'GRPO writes no skills.' : 'Written after the rollout (stage 3).'}</p>
      )}
    </aside>
  );
}
