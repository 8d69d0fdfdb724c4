import { describe, expect, it } from 'vitest';
import { evalsFromCsv, grpoSignalShare, riseOf } from './page.ts';

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
});
