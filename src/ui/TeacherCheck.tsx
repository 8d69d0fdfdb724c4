// The teacher check of the shown run's current policy: each game played without a skill, with its own skill,
// with another game's and with a blank block as long as its own, which says whether SEED's teacher can help at
// all, and whether a block of advice helps for its facts or for being there; beside it, where the world's
// record kept them, the recorded arms' checks over updates (TeacherEffects.tsx).
import { useState } from 'react';
import { MAX_TEACHER_GAMES } from '../worker/protocol.ts';
import { Big, percent } from './LiveNumbers.tsx';
import { usePlayground } from './store.ts';
import { TeacherEffects } from './TeacherEffects.tsx';

const DEFAULT_TEACHER_GAMES = 32;

export function TeacherCheck() {
  const teacher = usePlayground((s) => s.teacher);
  const ready = usePlayground((s) => s.engine.state === 'ready');
  const runCheck = usePlayground((s) => s.runTeacherCheck);
  const [games, setGames] = useState(String(DEFAULT_TEACHER_GAMES));
  const n = Number(games);
  const valid = Number.isInteger(n) && n >= 2 && n <= MAX_TEACHER_GAMES;
  return (
    <section
      className="panel teacher-check"
      aria-labelledby="teacher-title"
      data-testid="teacher"
      data-state={teacher.state}
    >
      <h2 id="teacher-title">Teacher check of the current policy</h2>
      <div className="teacher-controls">
        <button
          type="button"
          disabled={!ready || !valid}
          onClick={() => void runCheck(n)}
          data-testid="teacher-run"
          title={ready ? undefined : 'pause training first'}
        >
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
          Each game is played once, the policy writes its hindsight skill about it, and the game is played again without
          a skill, with its own skill, with another game’s, and with a blank block as long as its own skill. SEED can
          only help if the policy plays better with its own skill; the blank block tells its words from its length.
        </span>
      </div>
      {teacher.state === 'done' ? (
        <div
          className="big-numbers"
          data-testid="teacher-result"
          data-own={teacher.result.ownSkill}
          data-none={teacher.result.noSkill}
        >
          <Big
            label="with its own skill"
            value={percent(teacher.result.ownSkill)}
            testId="teacher-own"
            detail={`${teacher.result.games} games after update ${teacher.result.update}`}
          />
          <Big label="without a skill" value={percent(teacher.result.noSkill)} testId="teacher-none" />
          <Big label="with another game’s skill" value={percent(teacher.result.otherSkill)} testId="teacher-other" />
          <Big label="with a blank block" value={percent(teacher.result.blankSkill)} testId="teacher-blank" />
          <Big label="usable skills written" value={percent(teacher.result.validSkills)} testId="teacher-valid" />
        </div>
      ) : null}
      <TeacherEffects />
      {teacher.state === 'failed' ? (
        <p className="bad" role="alert" data-testid="teacher-error">
          The teacher check failed: {teacher.message}
        </p>
      ) : null}
    </section>
  );
}
