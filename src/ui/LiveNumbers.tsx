// Where the shown run stands, in large numbers: updates done, episodes played, the success of its last
// evaluation per split, and the teacher check of its current policy once it has been run.
import { useState } from 'react';
import { MAX_TEACHER_GAMES, type UpdateMetrics } from '../worker/protocol.ts';
import { usePlayground } from './store.ts';

const DEFAULT_TEACHER_GAMES = 32;
const NO_METRICS: readonly UpdateMetrics[] = [];

function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

function lastEval(list: readonly UpdateMetrics[]): UpdateMetrics | null {
  for (let i = list.length - 1; i >= 0; i--) if (list[i].evalSeen !== null) return list[i];
  return null;
}

/** `raw`: the number shown, unrounded, for tools that read the page (bench page). */
function Big({ label, value, raw, detail, testId }: { label: string; value: string; raw?: number | null; detail?: string; testId: string }) {
  return (
    <div className="big-number">
      <div className="big-value" data-testid={testId} data-value={raw ?? ''}>
        {value}
      </div>
      <div className="big-label">{label}</div>
      {detail ? <div className="muted big-detail">{detail}</div> : null}
    </div>
  );
}

export function LiveNumbers() {
  const run = usePlayground((s) => s.view.run);
  // Selectors return what the store holds (a fresh [] each call would render without end).
  const runCount = usePlayground((s) => s.info?.runs.length ?? 0);
  const list = usePlayground((s) => s.record.curves[s.view.run]) ?? NO_METRICS;
  const last = list.length ? list[list.length - 1] : null;
  const evaluated = lastEval(list);
  const evalDetail = evaluated ? `after update ${evaluated.update}` : 'measured after update 1';
  return (
    <section className="panel live" aria-labelledby="live-title" data-testid="live">
      <h2 id="live-title">
        Now {runCount > 1 ? <small>the {run} run</small> : null}
      </h2>
      <div className="big-numbers" aria-live="off" data-eval-update={evaluated?.update ?? ''}>
        <Big label="updates done" value={String(last?.update ?? 0)} raw={last?.update ?? 0} testId="live-update" />
        <Big label="training episodes played" value={(last?.episodes ?? 0).toLocaleString('en')} raw={last?.episodes ?? 0} testId="live-episodes" />
        <Big label="eval-seen success" value={evaluated?.evalSeen != null ? percent(evaluated.evalSeen) : '—'} raw={evaluated?.evalSeen ?? null} detail={evalDetail} testId="live-eval-seen" />
        <Big label="eval-unseen success" value={evaluated?.evalUnseen != null ? percent(evaluated.evalUnseen) : '—'} raw={evaluated?.evalUnseen ?? null} detail={evalDetail} testId="live-eval-unseen" />
      </div>
      <TeacherCheck />
    </section>
  );
}

function TeacherCheck() {
  const teacher = usePlayground((s) => s.teacher);
  const ready = usePlayground((s) => s.engine.state === 'ready');
  const runCheck = usePlayground((s) => s.runTeacherCheck);
  const [games, setGames] = useState(String(DEFAULT_TEACHER_GAMES));
  const n = Number(games);
  const valid = Number.isInteger(n) && n >= 2 && n <= MAX_TEACHER_GAMES;
  return (
    <div className="teacher-check" data-testid="teacher" data-state={teacher.state}>
      <h3>Teacher check of the current policy</h3>
      <div className="teacher-controls">
        <button type="button" disabled={!ready || !valid} onClick={() => void runCheck(n)} data-testid="teacher-run" title={ready ? undefined : 'pause training first'}>
          {teacher.state === 'running' ? 'Running the teacher check…' : 'Run the teacher check'}
        </button>
        <label>
          on{' '}
          <input
            type="number"
            min={2}
            max={MAX_TEACHER_GAMES}
            step={1}
            value={games}
            onChange={(e) => setGames(e.target.value)}
            aria-invalid={valid ? undefined : true}
            data-testid="teacher-games"
          />{' '}
          games
        </label>
        <span className="muted">
          Each game is played once, the policy writes its hindsight skill about it, and the game is played again without a skill, with its
          own skill, and with another game’s. SEED can only help if the policy plays better with its own skill.
        </span>
      </div>
      {teacher.state === 'done' ? (
        <div className="big-numbers" data-testid="teacher-result" data-own={teacher.result.ownSkill} data-none={teacher.result.noSkill}>
          <Big label="with its own skill" value={percent(teacher.result.ownSkill)} testId="teacher-own" detail={`${teacher.result.games} games after update ${teacher.result.update}`} />
          <Big label="without a skill" value={percent(teacher.result.noSkill)} testId="teacher-none" />
          <Big label="with another game’s skill" value={percent(teacher.result.otherSkill)} testId="teacher-other" />
          <Big label="usable skills written" value={percent(teacher.result.validSkills)} testId="teacher-valid" />
        </div>
      ) : null}
      {teacher.state === 'failed' ? (
        <p className="bad" role="alert" data-testid="teacher-error">
          The teacher check failed: {teacher.message}
        </p>
      ) : null}
    </div>
  );
}
