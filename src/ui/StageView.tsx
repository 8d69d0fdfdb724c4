import { useState } from 'react';
import { STAGES } from '../rl/update_state.ts';
import type { StageSnapshot, TrajectoryView } from '../worker/protocol.ts';
import { downloadText } from './download.ts';
import { fmt, skillKindLabel } from './EpisodeView.tsx';
import { STAGE_CAPTIONS, type SymbolName } from './explain.ts';
import { Sym, Symbols } from './Guide.tsx';
import { ScrollArea } from './ScrollArea.tsx';
import { exampleToken, trajectoryLabel, type ExampleToken } from './stage_example.ts';
import { TRUTH_TITLE, truthValue, truthWords } from './skill_words.ts';
import { StagePipeline } from './StagePipeline.tsx';
import { CreditNote, RolloutTable, TokenTable } from './StageTables.tsx';
import { armName, STAGE_TITLES } from './setting_labels.ts';
import { usePlayground } from './store.ts';

export function StageView() {
  const view = usePlayground((s) => s.view);
  const snapshot = usePlayground((s) => s.record.stage[s.view.run] ?? null);
  const stepStage = usePlayground((s) => s.stepStage);
  const ready = usePlayground((s) => s.engine.state === 'ready');
  const tokenTable = usePlayground((s) => s.tokenTable);
  const done = snapshot ? STAGES.indexOf(snapshot.stage) : -1;
  const selected = snapshot?.trajectories.find((t) => t.index === view.selected) ?? snapshot?.trajectories[0] ?? null;
  const example = selected ? exampleToken(selected) : null;
  const [showForced, setShowForced] = useState(false);

  const exportTable = async (format: 'json' | 'csv') => {
    const table = await tokenTable();
    if (!table) return;
    const name = `seed-tokens-update-${table.update}-stage-${table.stage}`;
    if (format === 'json') downloadText(table.json, `${name}.json`, 'application/json');
    else downloadText(table.csv, `${name}.csv`, 'text/csv');
  };
  const canExport = snapshot !== null && done >= STAGES.indexOf('rescore');

  return (
    <section className="panel" aria-labelledby="stages-title" data-testid="stages" data-stage={snapshot?.stage ?? ''}>
      <div className="panel-head">
        <h2 id="stages-title">
          Step through one update{' '}
          {snapshot ? (
            <small>
              update {snapshot.update} ({armName(snapshot.run)})
            </small>
          ) : null}
        </h2>
        <div className="button-row">
          <button type="button" onClick={() => void stepStage()} disabled={!ready} data-testid="stage-next">
            {done < 0 || done === STAGES.length - 1 ? 'Start: 1 rollout' : `Next: ${STAGE_TITLES[STAGES[done + 1]]}`}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => void exportTable('json')}
            disabled={!canExport}
            data-testid="export-loss-json"
            title="every token of the update with its numbers, in the format of `seed loss --in`"
          >
            Per-token table: JSON
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => void exportTable('csv')}
            disabled={!canExport}
            data-testid="export-tokens-csv"
          >
            CSV
          </button>
        </div>
      </div>
      <StagePipeline snapshot={snapshot} trajectory={selected} example={example} />
      {snapshot ? (
        <>
          <p className="stage-caption" data-testid="stage-caption">
            {STAGE_CAPTIONS[snapshot.stage]}
          </p>
          <StageBody
            snapshot={snapshot}
            selected={selected}
            example={example}
            showForced={showForced}
            onShowForced={setShowForced}
          />
          <Symbols names={STAGE_SYMBOLS[snapshot.stage]} />
        </>
      ) : (
        <p className="hint">Press “Start” to run the next update one stage at a time: {STAGE_CAPTIONS.rollout}</p>
      )}
    </section>
  );
}

const STAGE_SYMBOLS: Readonly<Record<StageSnapshot['stage'], readonly SymbolName[]>> = {
  rollout: ['l_old'],
  rewards: ['R', 'mean', 'std', 'A'],
  skills: [],
  rescore: ['l_old', 'l_student', 'l_skill', 'l_ref'],
  loss: ['Δ', 'gate', 'coef', 'grpo', 'opd', 'kl', 'corr(Δ, expert)', 'λ', 'β', 'clip', 'KL coefficient'],
  optimizer: ['L_GRPO', 'L_OPD', 'KL', 'total', 'gradient norm', 'rms parameter change'],
};

interface BodyProps {
  snapshot: StageSnapshot;
  selected: TrajectoryView | null;
  example: ExampleToken | null;
  showForced: boolean;
  onShowForced: (show: boolean) => void;
}

function StageBody({ snapshot, selected, example, showForced, onShowForced }: BodyProps) {
  const tokens = { example, showForced, onShowForced };
  switch (snapshot.stage) {
    case 'rollout':
      return <RolloutTable trajectories={snapshot.trajectories} selected={selected} example={example} />;
    case 'rewards':
      return (
        <ScrollArea label="Rewards table">
          <table className="numbers" data-testid="stage-table">
            <caption>R = 10·won − 0.1·invalid; A = (R − mean) / (std + 1e-6) per group</caption>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">
                  <Sym name="R">Rewards R</Sym>
                </th>
                <th scope="col">
                  <Sym name="mean" />
                </th>
                <th scope="col">
                  <Sym name="std" />
                </th>
                <th scope="col">
                  <Sym name="A">Advantages A</Sym>
                </th>
              </tr>
            </thead>
            <tbody>
              {(snapshot.groups ?? []).map((g) => {
                const episode = g.task === selected?.task ? selected.episode : null;
                return (
                  <tr
                    key={g.task}
                    className={episode === null ? undefined : 'example-row'}
                    data-example={episode !== null || undefined}
                  >
                    <td>{g.goal}</td>
                    <td className="num">
                      <GroupValues values={g.rewards.map((r) => r.toFixed(1))} marked={episode} />
                    </td>
                    <td className="num">{fmt(g.mean)}</td>
                    <td className="num">{fmt(g.std)}</td>
                    <td className="num">
                      <GroupValues values={g.advantages.map(fmt)} marked={episode} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollArea>
      );
    case 'skills': {
      // The truth column only where the world's truth test checked the skills.
      const checked = snapshot.trajectories.some((t) => t.skill?.truth);
      return (
        <ScrollArea label="Skills table">
          <table className="numbers" data-testid="stage-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Outcome of the game</th>
                <th scope="col">Kind the skill states</th>
                <th scope="col">Skill</th>
                <th scope="col" title="it parses under the world's skill grammar and is long enough to distil">
                  Well formed
                </th>
                {checked ? (
                  <th scope="col" title={TRUTH_TITLE}>
                    True of its game
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {snapshot.trajectories.map((t) => (
                <tr
                  key={t.index}
                  className={t.index === selected?.index ? 'example-row' : undefined}
                  data-example={t.index === selected?.index || undefined}
                >
                  <td>{trajectoryLabel(t)}</td>
                  <td>{t.won ? 'success' : 'failure'}</td>
                  <td>{skillKindLabel(t.skill?.kind ?? null)}</td>
                  <td>
                    <details>
                      <summary>{t.skill?.text || '(empty)'}</summary>
                      <pre className="prompt">{t.skill?.prompt}</pre>
                    </details>
                  </td>
                  <td>{t.skill?.valid ? 'yes' : `no: ${t.skill?.reason ?? ''}`}</td>
                  {checked ? (
                    <td data-truth={t.skill?.truth ? truthValue(t.skill.truth) : ''}>
                      {t.skill?.truth ? truthWords(t.skill.truth).text : '—'}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      );
    }
    case 'rescore':
      return selected ? (
        <TokenTable
          {...tokens}
          t={selected}
          columns={[
            ['l_old', (t, k) => t.lOld[k]],
            ['l_student', (t, k) => t.scores?.lStudent[k]],
            ['l_skill', (t, k) => t.scores?.lSkill[k]],
            ['l_ref', (t, k) => t.scores?.lRef[k]],
          ]}
        />
      ) : null;
    case 'loss':
      return selected ? (
        <TokenTable
          {...tokens}
          t={selected}
          note={
            <>
              <Sym name="λ" /> {snapshot.hyper.lambda}, <Sym name="β" /> {snapshot.hyper.beta}, <Sym name="clip" />{' '}
              {snapshot.hyper.clip}, <Sym name="KL coefficient" /> {snapshot.hyper.klCoef}
              {snapshot.hyper.gate ? '' : ', gate off (g = 1)'}; coef = grpo + opd + kl = d L_SEED / d l_student
              {snapshot.credit ? <CreditNote credit={snapshot.credit} /> : null}
            </>
          }
          columns={[
            ['Δ', (t, k) => t.scores?.delta[k]],
            ['gate', (t, k) => t.scores?.gate[k]],
            ['coef', (t, k) => t.scores?.coef[k]],
            ['grpo', (t, k) => t.scores?.coefGrpo[k]],
            ['opd', (t, k) => t.scores?.coefOpd[k]],
            ['kl', (t, k) => t.scores?.coefKl[k]],
          ]}
        />
      ) : null;
    case 'optimizer': {
      const step = snapshot.step;
      if (!step) return null;
      return (
        <div data-testid="stage-table">
          <dl className="facts">
            <dt>
              <Sym name="L_GRPO" />
            </dt>
            <dd data-testid="step-lgrpo">{fmt(step.L_GRPO)}</dd>
            <dt>
              <Sym name="L_OPD" />
            </dt>
            <dd>{fmt(step.L_OPD)}</dd>
            <dt>
              <Sym name="KL" />
            </dt>
            <dd>{fmt(step.KL)}</dd>
            <dt>
              <Sym name="total" />
            </dt>
            <dd>{fmt(step.total)}</dd>
            <dt>
              <Sym name="gradient norm" />
            </dt>
            <dd data-testid="step-gradnorm">{fmt(step.gradNorm)}</dd>
            <dt>
              <Sym name="rms parameter change" />
            </dt>
            <dd data-testid="step-rms-change">{fmt(step.rmsChange)}</dd>
          </dl>
          <ScrollArea label="Parameter changes table">
            <table className="numbers">
              <caption>Largest parameter changes</caption>
              <thead>
                <tr>
                  <th scope="col">Parameter</th>
                  <th scope="col">before</th>
                  <th scope="col">after</th>
                  <th scope="col">change</th>
                </tr>
              </thead>
              <tbody>
                {step.largest.map((c) => (
                  <tr key={`${c.name}[${c.index.join(',')}]`} data-testid="param-change">
                    <td>
                      {c.name}[{c.index.join(', ')}] {c.row ? <span className="muted">{c.row}</span> : null}
                    </td>
                    <td className="num">{fmt(c.before)}</td>
                    <td className="num">{fmt(c.after)}</td>
                    <td className="num">{fmt(c.after - c.before)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollArea>
        </div>
      );
    }
  }
}

/** A group's values, one per game, the example trajectory's game marked. */
function GroupValues({ values, marked }: { values: string[]; marked: number | null }) {
  return (
    <>
      {values.map((v, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a group's values never change order
        <span key={i}>
          {i > 0 ? ', ' : ''}
          {i === marked ? <mark className="example-value">{v}</mark> : v}
        </span>
      ))}
    </>
  );
}
