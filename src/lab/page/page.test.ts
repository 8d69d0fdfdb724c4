import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_NAMES } from '../../worlds/names.ts';
import { run } from './page.ts';
import { evalsFromCsv, grpoSignalShare, riseOf, secondsTo, stageSplit } from './page_figures.ts';
import { whereTimeGoes } from './page_report.ts';

const TIMED_COLUMNS =
  'source,run,seed,update,evalSeen,evalUnseen,updateMs,rolloutMs,rewardsMs,skillsMs,rescoreMs,currentPassMs,referencePassMs,lossMs,optimizerMs,evalMs';

describe('bench page figures', () => {
  it('counts the live updates whose L_GRPO is not zero, ignoring recorded rows and empty cells', () => {
    const csv = [
      'source,run,seed,update,L_GRPO,evalSeen',
      'recorded,grpo,1,16,,0.5',
      'live,seed,1,1,0,',
      'live,seed,1,2,0.031,0.4',
      'live,seed,1,3,-0.2,',
      'live,seed,1,4,,',
    ].join('\n');
    expect(grpoSignalShare(csv)).toBeCloseTo(2 / 3, 12);
    expect(grpoSignalShare('source,L_GRPO\nrecorded,0.1\n')).toBeNull();
  });

  it("takes the rise from the first evaluation (the warm start's) to the last, in points of the mean of both splits", () => {
    expect(riseOf([{ seconds: 3, update: 1, seen: 0.25, unseen: 0.35 }])).toBeNull();
    const rise = riseOf([
      { seconds: 3, update: 1, seen: 0.25, unseen: 0.35 },
      { seconds: 60, update: 50, seen: 0.6, unseen: 0.2 },
      { seconds: 120, update: 100, seen: 0.5, unseen: 0.4 },
    ]);
    expect(rise).toBeCloseTo(15, 9);
  });

  it("takes every live evaluation from the CSV, the warm start's first, up to the last update shown in time, timed by the first reading that showed it", () => {
    const csv = [
      'source,run,seed,update,evalSeen,evalUnseen,L_GRPO',
      'recorded,grpo,1,16,0.5,0.5,',
      'live,seed,1,0,0.2,0.1,',
      'live,seed,1,1,0.25,0.3,0',
      'live,seed,1,2,,,0.1',
      'live,seed,1,3,0.4,0.35,0.1',
      'live,seed,1,4,0.45,0.5,0.1',
      'live,seed,1,5,0.9,0.9,0.1',
    ].join('\n');
    const samples = [
      { seconds: 0, update: 0 },
      { seconds: 1, update: 2 },
      { seconds: 2, update: 4 },
    ];
    expect(evalsFromCsv(csv, samples, 4)).toEqual([
      { seconds: 0, update: 0, seen: 0.2, unseen: 0.1 },
      { seconds: 1, update: 1, seen: 0.25, unseen: 0.3 },
      { seconds: 2, update: 3, seen: 0.4, unseen: 0.35 },
      { seconds: 2, update: 4, seen: 0.45, unseen: 0.5 },
    ]);
  });

  it("splits the timed updates' wait by stage, the evaluations spread over them, of one source and arm", () => {
    const csv = [
      TIMED_COLUMNS,
      'live,seed,1,0,0.2,0.1,,,,,,,,,,900',
      // Update 1's rollout ran at the start, before Play: its wait does not hold it, and it is left out.
      'live,seed,1,1,0.3,0.2,900,500,1,100,80,40,30,200,50,600',
      'live,seed,1,2,0.3,0.2,1600,500,1,100,80,40,30,200,50,600',
      'live,seed,1,3,,,1000,700,1,90,60,30,20,100,40,',
      'live,seed,1,4,,,1000,700,1,90,60,30,20,100,40,',
      // A stepped update has no wait of its own; one after the last update shown is left out.
      'live,seed,1,5,,,,700,1,90,60,30,20,100,40,',
      'live,seed,1,6,,,999,700,1,90,60,30,20,100,40,',
      'race,grpo,1,1,0.3,0.2,2000,1000,1,0,50,0,50,300,50,500',
      'race,grpo,1,2,,,2000,1000,1,0,50,0,50,300,50,',
    ].join('\n');
    const split = stageSplit(csv, 5)!;
    expect(split.updates).toBe(3);
    expect(split.updateMs).toBeCloseTo(3600 / 3, 9);
    expect(split.stages.rolloutMs).toBeCloseTo(1900 / 3, 9);
    expect(split.stages.currentPassMs).toBeCloseTo(100 / 3, 9);
    expect(split.evaluations).toBe(1);
    expect(split.evalMsPerUpdate).toBeCloseTo(200, 9);
    expect(split.evalMsEach).toBeCloseTo(600, 9);
    expect(split.warmStartEvalMs).toBe(900);
    // The rest of the wait is what no stage and no evaluation took.
    expect(split.otherMs).toBeCloseTo((3600 - (1900 + 3 + 280 + 200 + 400 + 130) - 600) / 3, 9);
    const race = stageSplit(csv, 9, 'race', 'grpo')!;
    expect(race).toMatchObject({ updates: 1, updateMs: 2000, evaluations: 0, evalMsEach: null, warmStartEvalMs: null });
    expect(stageSplit(csv, 9, 'race', 'seed-exact')).toBeNull();
    expect(stageSplit(csv, 1)).toBeNull();
  });

  it('says where the time goes from the largest parts of the wait, and that nothing was timed where nothing was', () => {
    const csv = [TIMED_COLUMNS, 'live,seed,1,2,0.3,0.2,1000,600,0,100,100,60,30,100,0,0'].join('\n');
    const text = whereTimeGoes('the test world', [stageSplit(csv, 2)!]);
    expect(text).toBe(
      "In the test world an update's wait is 1.00 s on average. Most of it is the rollout (60.0%), then the skill writing (10.0%) and the rescore (10.0%); the scoring passes take 9.0%. One evaluation takes 0.0 s.",
    );
    expect(whereTimeGoes('the test world', [])).toContain('no update was timed');
  });

  it('times the first reading at or past an update', () => {
    const samples = [
      { seconds: 0, update: 0 },
      { seconds: 1, update: 0 },
      { seconds: 2, update: 3 },
    ];
    expect(secondsTo(samples, 1)).toBe(2);
    expect(secondsTo(samples, 4)).toBeNull();
  });

  it('refuses a world that is none of the registry, a world or seed set through the link, and --race with --shots', async () => {
    await expect(run(['--env', 'moon'])).rejects.toThrow(
      `--env must be one of ${ENVIRONMENT_NAMES.join(', ')}, got "moon"`,
    );
    await expect(run(['--link', `env=${ENVIRONMENT_NAMES[0]}`])).rejects.toThrow(
      '--link sets the world through --env, not env=',
    );
    await expect(run(['--link', 'seed=3'])).rejects.toThrow('--link sets the seed through --first-seed, not seed=');
    await expect(run(['--race', '--shots'])).rejects.toThrow('--race and --shots are two runs');
  });
});
