// The curves as CSV (curves_csv.ts): a `source` column telling recorded rows from live ones, and every
// update's diagnostics, empty where an update has none.
import { describe, expect, it } from 'vitest';
import type { UpdateMetrics } from '../worker/protocol.ts';
import { CSV_COLUMNS, curvesCsv } from './curves_csv.ts';
import { metrics, record } from './curves_testing.ts';

describe('the curves as CSV', () => {
  it('has a source column: a row per recorded arm, seed and evaluation, then a row per live run and update', () => {
    const csv = curvesCsv(
      { seed: [metrics('seed', 1), metrics('seed', 2, 0.5)], grpo: [metrics('grpo', 1)] },
      record(),
      7,
    );
    const rows = csv
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows[0].slice(0, 8)).toEqual([
      'source',
      'run',
      'seed',
      'update',
      'episodes',
      'successTrain',
      'evalSeen',
      'evalUnseen',
    ]);
    const recorded = rows.filter((r) => r[0] === 'recorded');
    expect(recorded).toHaveLength(9);
    expect(recorded[1].slice(0, 8)).toEqual(['recorded', 'grpo', '1', '4', '128', '', '0.3', '0.2']);
    expect(recorded[7].slice(0, 8)).toEqual(['recorded', 'seed', '1', '4', '128', '', '0.6', '']);
    expect(recorded[1].slice(8).every((c) => c === '')).toBe(true);
    expect(rows.filter((r) => r[0] === 'live').map((r) => r.slice(0, 8))).toEqual([
      ['live', 'grpo', '7', '1', '8', '0.25', '', ''],
      ['live', 'seed', '7', '1', '8', '0.25', '', ''],
      ['live', 'seed', '7', '2', '16', '0.25', '0.5', '0.5'],
    ]);
    const column = (name: string) => rows[0].indexOf(name);
    expect(rows.filter((r) => r[0] === 'live').map((r) => [r[column('lambda')], r[column('beta')]])).toEqual([
      ['0.1', '5'],
      ['0.1', '5'],
      ['0.1', '5'],
    ]);
    expect([recorded[1][column('lambda')], recorded[1][column('beta')]]).toEqual(['', '']);
    // A point of a run saved before lambda and beta were kept leaves their cells empty.
    const old = curvesCsv({ seed: [{ ...metrics('seed', 1), lambda: null, beta: null }] })
      .trimEnd()
      .split('\n')[1]
      .split(',');
    expect([old[column('lambda')], old[column('beta')]]).toEqual(['', '']);
    expect(
      curvesCsv({ seed: [metrics('seed', 1)] })
        .trimEnd()
        .split('\n')
        .map((l) => l.split(',')[0]),
    ).toEqual(['source', 'live']);
  });

  it('carries the diagnostics of every update: empty cells where an update has none', () => {
    const diagnosed: UpdateMetrics = {
      ...metrics('seed', 3),
      meanAbsDelta: 0.61,
      forcedShare: 0.66,
      corrDeltaExpert: 0.22,
      corrDeltaAdvantageWon: 0.54,
      corrDeltaAdvantageLost: -0.125,
      zeroVarianceGroups: 0.25,
      teacherNoSkill: 0.25,
      teacherOwnSkill: 0.4375,
      teacherOtherSkill: 0.375,
      teacherBlankSkill: 0.3125,
    };
    const [head, plain, row] = curvesCsv({ seed: [metrics('seed', 2), diagnosed] })
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
    const at = (cells: string[], column: string) => cells[head.indexOf(column)];
    const columns = [
      'meanAbsDelta',
      'forcedShare',
      'corrDeltaExpert',
      'corrDeltaAdvantageWon',
      'corrDeltaAdvantageLost',
      'zeroVarianceGroups',
      'teacherNoSkill',
      'teacherOwnSkill',
      'teacherOtherSkill',
      'teacherBlankSkill',
    ];
    expect(columns.map((c) => at(row, c))).toEqual([
      '0.61',
      '0.66',
      '0.22',
      '0.54',
      '-0.125',
      '0.25',
      '0.25',
      '0.4375',
      '0.375',
      '0.3125',
    ]);
    expect(columns.map((c) => at(plain, c))).toEqual(columns.map(() => ''));
  });
});
