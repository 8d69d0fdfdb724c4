// The recorded run: a finished `bench learn` of the page's world, loaded from public/runs/ on load and at a switch
// of the World (recorded_store.ts), shown at once beside the live run; a world with none says so. It says what it is (command, commit, size), gives the final figures with their
// intervals, and lets a person scrub through its recorded updates: the charts' cursor follows, and the
// episodes recorded at that update show their skills and per-token heatmap.
import { useId, useMemo, useState } from 'react';
import type { RecordedEpisode, RecordedRun as Recorded } from '../rl/recorded_run.ts';
import { recordWorld } from '../rl/recorded_run_check.ts';
import { isDegenerateSkill } from '../text/skill_repeats.ts';
import { colourOfRun } from './charts.ts';
import { armBand, recordedUpdates } from './recorded_curves.ts';
import { useRecorded, useRecordedOf } from './recorded_store.ts';
import { ScrollArea } from './ScrollArea.tsx';
import { armName } from './setting_labels.ts';
import { colourOf, robustBound, type ColourBy } from './run_record.ts';
import { usePageWorld } from './world.ts';
import { factsOf, theWorld } from '../worlds/facts.ts';

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}` : 'n/a');
const signed = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}` : 'n/a');

export function RecordedRun() {
  const world = usePageWorld();
  const recorded = useRecordedOf(world);
  if (recorded.state !== 'ready') {
    return (
      <section
        className="panel"
        aria-labelledby="recorded-title"
        data-testid="recorded-run"
        data-state={recorded.state}
        data-world={world}
      >
        <h2 id="recorded-title">Recorded run</h2>
        <p className={recorded.state === 'failed' ? 'bad' : 'muted'} role="status" data-testid="recorded-message">
          {recorded.state === 'loading' ? `Loading ${theWorld(world)}’s recorded run…` : recorded.message}
        </p>
      </section>
    );
  }
  return <RecordedPanel run={recorded.run} url={recorded.url} />;
}

function RecordedPanel({ run, url }: { run: Recorded; url: string }) {
  const update = useRecorded((s) => s.update);
  const setUpdate = useRecorded((s) => s.setUpdate);
  const updates = useMemo(() => recordedUpdates(run), [run]);
  const index = Math.max(0, updates.indexOf(update ?? updates[updates.length - 1]));
  const shown = updates[index];
  const scrubId = useId();
  const mainSeeds = Math.max(0, ...run.arms.filter((a) => a.role === 'main').map((a) => a.seeds.length));
  const comparisons = run.differences.filter((d) => d.b !== 'warm start');
  const world = recordWorld(run);
  return (
    <section
      className="panel recorded"
      aria-labelledby="recorded-title"
      data-testid="recorded-run"
      data-state="ready"
      data-world={world}
      data-update={shown}
    >
      <div className="panel-head">
        <h2 id="recorded-title">
          Recorded run{' '}
          <span className="badge" data-testid="recorded-badge">
            recorded
          </span>
        </h2>
      </div>
      <p>
        A finished benchmark in{' '}
        <span data-testid="recorded-world" data-world={world}>
          {theWorld(world)}
        </span>
        , loaded from <code>{url}</code>, not trained in this page: {run.updates} updates of {run.episodesPerUpdate}{' '}
        episodes on the {run.preset} preset, {mainSeeds} seed{mainSeeds === 1 ? '' : 's'} per main arm, evaluated every{' '}
        {run.evalEvery} updates on {run.evalGames.seen} eval-seen and {run.evalGames.unseen} eval-unseen games. Its
        curves are the dashed lines of the charts.
      </p>
      <dl className="facts">
        <dt>Command</dt>
        <dd>
          <code data-testid="recorded-command">{run.command}</code>
        </dd>
        <dt>Commit</dt>
        <dd>
          <code data-testid="recorded-commit">{run.commit}</code>
        </dd>
        <dt>Finished</dt>
        <dd>{new Date(run.created).toLocaleString()}</dd>
      </dl>
      <ScrollArea label="Final success table">
        <table className="recorded-table" data-testid="recorded-finals">
          <caption>Final success, % [95% interval over seeds and {factsOf(world).words.clusters}]</caption>
          <thead>
            <tr>
              <th scope="col">arm</th>
              <th scope="col">seeds</th>
              <th scope="col">eval-seen</th>
              <th scope="col">eval-unseen</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">warm start</th>
              <td>–</td>
              <td>{pct(run.warmstart.seen)}</td>
              <td>{pct(run.warmstart.unseen)}</td>
            </tr>
            {run.arms.map((a) => (
              <tr key={a.algo}>
                <th scope="row">
                  <span className="swatch" style={{ background: colourOfRun(a.algo) }} /> {armName(a.algo)}
                  {a.role === 'main' ? '' : <span className="muted"> ({a.role})</span>}
                </th>
                <td>{a.seeds.length}</td>
                <td>
                  {pct(a.final.seen.value)} [{pct(a.final.seen.ci[0])}, {pct(a.final.seen.ci[1])}]
                </td>
                <td>
                  {pct(a.final.unseen.value)} [{pct(a.final.unseen.ci[0])}, {pct(a.final.unseen.ci[1])}]
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
      {comparisons.length ? (
        <details>
          <summary>Differences between arms, paired by seed</summary>
          <ul className="recorded-differences">
            {comparisons.map((d) => (
              <li key={`${d.a}-${d.b}`}>
                {armName(d.a)} − {armName(d.b)} (seeds {d.seeds.join(', ') || 'none in common'}): eval-seen{' '}
                {signed(d.seen.value)} [{signed(d.seen.ci[0])}, {signed(d.seen.ci[1])}], eval-unseen{' '}
                {signed(d.unseen.value)} [{signed(d.unseen.ci[0])}, {signed(d.unseen.ci[1])}] points
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <div className="scrub">
        <label htmlFor={scrubId}>Recorded update</label>
        <input
          id={scrubId}
          type="range"
          min={0}
          max={updates.length - 1}
          step={1}
          value={index}
          onChange={(e) => setUpdate(updates[Number(e.target.value)])}
          aria-valuetext={`update ${shown} of ${run.updates}`}
          data-testid="recorded-scrub"
        />
        <output htmlFor={scrubId} data-testid="recorded-update">
          update {shown} of {run.updates}
        </output>
      </div>
      <AtUpdate run={run} update={shown} />
      <RecordedEpisodes episodes={run.episodes.filter((e) => e.update === shown)} />
    </section>
  );
}

/** Each arm's mean eval success at the scrubbed update. */
function AtUpdate({ run, update }: { run: Recorded; update: number }) {
  const rows = run.arms.map((a) => {
    const at = (split: 'seen' | 'unseen') => armBand(a, split).find((p) => p.update === update);
    return { algo: a.algo, seen: at('seen'), unseen: at('unseen') };
  });
  if (rows.every((r) => !r.seen && !r.unseen)) return null;
  return (
    <p className="muted" data-testid="recorded-at-update">
      At update {update}, mean eval-seen / eval-unseen success:{' '}
      {rows.map((r, i) => (
        <span key={r.algo}>
          {i ? '; ' : ''}
          {armName(r.algo)} {r.seen ? pct(r.seen.mean) : 'n/a'}% / {r.unseen ? pct(r.unseen.mean) : 'n/a'}%
        </span>
      ))}
      .
    </p>
  );
}

/** A record keeps Delta, the gate and the coefficient of its episodes. */
type RecordedColour = Exclude<ColourBy, 'kl'>;

const COLOUR_BY: { value: RecordedColour; label: string }[] = [
  { value: 'delta', label: 'Delta (skill minus plain log-prob)' },
  { value: 'gate', label: 'gate' },
  { value: 'coef', label: 'coefficient (gradient weight)' },
];

function valuesOf(e: RecordedEpisode, by: RecordedColour): (number | null)[] {
  return by === 'delta' ? e.delta : by === 'gate' ? e.gate : e.coef;
}

/**
 * Whether a recorded token was forced (the decoding mask allowed it alone): a record keeps no mask, but such a
 * token has probability 1 with and without the skill, so its Delta is exactly 0. GRPO's tokens have no Delta.
 */
function forcedInRecord(e: RecordedEpisode, at: number): boolean {
  return e.delta[at] === 0;
}

/** The recorded episodes' scale: the 95th percentile of |value| over their unforced tokens (robustBound). */
function recordedRange(episodes: RecordedEpisode[], by: RecordedColour): [number, number] {
  if (by === 'gate') return [0, 1];
  const values = episodes.flatMap((e) =>
    valuesOf(e, by).filter((v, at): v is number => v !== null && !forcedInRecord(e, at)),
  );
  const bound = robustBound(values);
  return [-bound, bound];
}

function RecordedEpisodes({ episodes }: { episodes: RecordedEpisode[] }) {
  const [by, setBy] = useState<RecordedColour>('delta');
  const selectId = useId();
  const range = useMemo(() => recordedRange(episodes, by), [episodes, by]);
  if (episodes.length === 0) return <p className="muted">No episodes were recorded at this update.</p>;
  return (
    <div className="recorded-episodes">
      <label htmlFor={selectId}>Colour tokens by </label>
      <select
        id={selectId}
        value={by}
        onChange={(e) => setBy(e.target.value as RecordedColour)}
        data-testid="recorded-colour-by"
      >
        {COLOUR_BY.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <p className="muted" data-testid="recorded-scale">
        {by === 'gate'
          ? 'Gate from 0 (white) to 1 (full colour).'
          : `The scale ends at ±${range[1].toPrecision(3)}, the 95th percentile of |value| over these episodes’ unforced tokens; larger values show its end colour.`}{' '}
        <span className="tok forced">Grey</span> tokens were forced: the decoding mask allowed them alone (Delta exactly
        0).
      </p>
      {episodes.map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the record's episodes never change order
        <EpisodeCard key={`${e.algo}-${e.seed}-${i}`} episode={e} by={by} range={range} />
      ))}
    </div>
  );
}

const num = (v: number | null) => (v === null ? 'none' : String(v));

function EpisodeCard({
  episode: e,
  by,
  range,
}: {
  episode: RecordedEpisode;
  by: RecordedColour;
  range: [number, number];
}) {
  const values = valuesOf(e, by);
  let k = 0;
  return (
    <article className="recorded-episode" data-testid="recorded-episode" data-algo={e.algo} data-update={e.update}>
      <h3>
        <span className="swatch" style={{ background: colourOfRun(e.algo) }} /> {armName(e.algo)}, seed {e.seed}, update{' '}
        {e.update}: <span className={e.won ? 'ok' : 'bad'}>{e.won ? 'won' : 'lost'}</span>{' '}
        <span className="muted">
          (reward {e.reward}, advantage {e.advantage})
        </span>
      </h3>
      <p>Task: {e.goal}</p>
      {e.skill ? (
        <p className="recorded-skill" data-testid="recorded-skill">
          Skill distilled from{e.skill.valid ? '' : ' (unusable, so not distilled)'}: <q>{e.skill.text}</q>
          {isDegenerateSkill(e.skill.text) ? (
            <span className="bad" data-testid="recorded-skill-degenerate">
              {' '}
              degenerate (repeats a phrase)
            </span>
          ) : null}
        </p>
      ) : (
        <p className="muted">No skill: this algorithm distils none.</p>
      )}
      {e.ownSkill ? (
        <p className="muted">
          The skill this episode wrote itself (not the one distilled): <q>{e.ownSkill.text}</q>
        </p>
      ) : null}
      <ol className="recorded-steps">
        {e.steps.map((s, j) => {
          const start = k;
          k += s.tokens;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: an episode's steps never change order
            <li key={j}>
              <span className={s.valid ? 'command' : 'command bad'}>
                {e.tokens.slice(start, start + s.tokens).map((t, m) => {
                  const at = start + m;
                  const forced = forcedInRecord(e, at);
                  const v = forced ? null : values[at];
                  return (
                    <span
                      // biome-ignore lint/suspicious/noArrayIndexKey: a command's tokens never change order
                      key={m}
                      className={forced ? 'tok forced' : v === null ? 'tok unscored' : 'tok'}
                      style={v === null ? undefined : { background: colourOf(v, range, by) }}
                      title={`${t}${forced ? ' (forced)' : ''}: Delta ${num(e.delta[at])}, gate ${num(e.gate[at])}, coefficient ${num(e.coef[at])}`}
                    >
                      {t}
                    </span>
                  );
                })}
              </span>
            </li>
          );
        })}
      </ol>
    </article>
  );
}
