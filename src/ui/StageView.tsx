import { STAGES } from '../rl/update_state.ts';
import type { StageSnapshot, TrajectoryView } from '../worker/protocol.ts';
import { downloadText } from './download.ts';
import { fmt } from './EpisodeView.tsx';
import { STAGE_TITLES } from './setting_labels.ts';
import { usePlayground } from './store.ts';

export function StageView() {
  const view = usePlayground((s) => s.view);
  const snapshot = usePlayground((s) => s.record.stage[s.view.run] ?? null);
  const stepStage = usePlayground((s) => s.stepStage);
  const ready = usePlayground((s) => s.engine.state === 'ready');
  const lossJson = usePlayground((s) => s.lossJson);
  const done = snapshot ? STAGES.indexOf(snapshot.stage) : -1;
  const selected = snapshot?.trajectories.find((t) => t.index === view.selected) ?? snapshot?.trajectories[0] ?? null;

  const exportLoss = async () => {
    const text = await lossJson();
    if (text) downloadText(text, `seed-loss-update-${snapshot?.update ?? 0}.json`, 'application/json');
  };

  return (
    <section className="panel" aria-labelledby="stages-title" data-testid="stages" data-stage={snapshot?.stage ?? ''}>
      <div className="panel-head">
        <h2 id="stages-title">
          Step through one update {snapshot ? <small>update {snapshot.update} ({snapshot.run})</small> : null}
        </h2>
        <div className="button-row">
          <button type="button" onClick={() => void stepStage()} disabled={!ready} data-testid="stage-next">
            {done < 0 || done === STAGES.length - 1 ? 'Start: 1 rollout' : `Next: ${STAGE_TITLES[STAGES[done + 1]]}`}
          </button>
          <button type="button" className="secondary" onClick={() => void exportLoss()} disabled={!snapshot || done < STAGES.indexOf('rescore')} data-testid="export-loss-json">
            Export per-token table (loss JSON)
          </button>
        </div>
      </div>
      <ol className="stage-track" aria-label="Stages">
        {STAGES.map((s, i) => (
          <li key={s} className={i <= done ? 'done' : ''} aria-current={i === done ? 'step' : undefined}>
            {STAGE_TITLES[s]}
          </li>
        ))}
      </ol>
      {snapshot ? <StageBody snapshot={snapshot} selected={selected} /> : <p className="hint">Press “Start” to run the next update one stage at a time.</p>}
    </section>
  );
}

function StageBody({ snapshot, selected }: { snapshot: StageSnapshot; selected: TrajectoryView | null }) {
  switch (snapshot.stage) {
    case 'rollout':
      return <RolloutTable trajectories={snapshot.trajectories} />;
    case 'rewards':
      return (
        <table className="numbers" data-testid="stage-table">
          <caption>R = 10·won − 0.1·invalid; A = (R − mean) / (std + 1e-6) per group</caption>
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Rewards R</th>
              <th scope="col">mean</th>
              <th scope="col">std</th>
              <th scope="col">Advantages A</th>
            </tr>
          </thead>
          <tbody>
            {(snapshot.groups ?? []).map((g) => (
              <tr key={g.task}>
                <td>{g.goal}</td>
                <td className="num">{g.rewards.map((r) => r.toFixed(1)).join(', ')}</td>
                <td className="num">{fmt(g.mean)}</td>
                <td className="num">{fmt(g.std)}</td>
                <td className="num">{g.advantages.map(fmt).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    case 'skills':
      return (
        <table className="numbers" data-testid="stage-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Outcome</th>
              <th scope="col">Skill</th>
              <th scope="col">Usable</th>
            </tr>
          </thead>
          <tbody>
            {snapshot.trajectories.map((t) => (
              <tr key={t.index}>
                <td>{t.index}</td>
                <td>{t.won ? 'success' : 'failure'}</td>
                <td>
                  <details>
                    <summary>{t.skill?.text || '(empty)'}</summary>
                    <pre className="prompt">{t.skill?.prompt}</pre>
                  </details>
                </td>
                <td>{t.skill?.valid ? 'yes' : `no: ${t.skill?.reason ?? ''}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    case 'rescore':
      return selected ? (
        <TokenTable t={selected} columns={[['l_old', (t, k) => t.lOld[k]], ['l_student', (t, k) => t.scores?.lStudent[k]], ['l_skill', (t, k) => t.scores?.lSkill[k]], ['l_ref', (t, k) => t.scores?.lRef[k]]]} />
      ) : null;
    case 'loss':
      return selected ? (
        <TokenTable
          t={selected}
          note={`λ ${snapshot.hyper.lambda}, β ${snapshot.hyper.beta}, clip ${snapshot.hyper.clip}, KL coefficient ${snapshot.hyper.klCoef}${snapshot.hyper.gate ? '' : ', gate off (g = 1)'}; coef = grpo + opd + kl = d L_SEED / d l_student`}
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
            <dt>L_GRPO</dt>
            <dd data-testid="step-lgrpo">{fmt(step.L_GRPO)}</dd>
            <dt>L_OPD</dt>
            <dd>{fmt(step.L_OPD)}</dd>
            <dt>KL</dt>
            <dd>{fmt(step.KL)}</dd>
            <dt>total</dt>
            <dd>{fmt(step.total)}</dd>
            <dt>gradient norm</dt>
            <dd data-testid="step-gradnorm">{fmt(step.gradNorm)}</dd>
            <dt>rms parameter change</dt>
            <dd data-testid="step-rms-change">{fmt(step.rmsChange)}</dd>
          </dl>
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
        </div>
      );
    }
  }
}

function RolloutTable({ trajectories }: { trajectories: TrajectoryView[] }) {
  return (
    <table className="numbers" data-testid="stage-table">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Task</th>
          <th scope="col">Steps</th>
          <th scope="col">Won</th>
          <th scope="col">Commands (mean l_old)</th>
        </tr>
      </thead>
      <tbody>
        {trajectories.map((t) => (
          <tr key={t.index}>
            <td>
              {t.task + 1}.{t.episode + 1}
            </td>
            <td>{t.goal}</td>
            <td className="num">{t.steps.length}</td>
            <td>{t.won ? 'yes' : 'no'}</td>
            <td>
              {t.steps.map((s, i) => {
                let sum = 0;
                for (let k = s.tokenStart; k < s.tokenStart + s.tokenCount; k++) sum += t.lOld[k];
                return (
                  <span key={i} className="cmd-chip">
                    {s.command} <span className="muted">({fmt(sum / Math.max(1, s.tokenCount))})</span>
                  </span>
                );
              })}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Column = [string, (t: TrajectoryView, k: number) => number | undefined];

function TokenTable({ t, columns, note }: { t: TrajectoryView; columns: Column[]; note?: string }) {
  return (
    <table className="numbers" data-testid="stage-table">
      <caption>
        Per command token of trajectory {t.task + 1}.{t.episode + 1} (pick another in Episodes){note ? `; ${note}` : ''}
      </caption>
      <thead>
        <tr>
          <th scope="col">step</th>
          <th scope="col">token</th>
          {columns.map(([name]) => (
            <th key={name} scope="col">
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {t.steps.flatMap((s, i) =>
          Array.from({ length: s.tokenCount }, (_, j) => {
            const k = s.tokenStart + j;
            return (
              <tr key={k}>
                <td className="num">{i + 1}</td>
                <td>{t.tokens[k]}</td>
                {columns.map(([name, get]) => {
                  const v = get(t, k);
                  return (
                    <td key={name} className="num">
                      {v === undefined ? '—' : fmt(v)}
                    </td>
                  );
                })}
              </tr>
            );
          }),
        )}
      </tbody>
    </table>
  );
}
