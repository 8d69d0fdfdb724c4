// The check a recorded run (recorded_run.ts) and its index pass before the page draws them: a record is input
// like a link or a file, so a damaged, truncated or older one is refused with a one-line reason that names
// the first field in the way, and the page goes on without it. The field checks are shared with the check of
// a run that `bench learn --resume` kept (src/lab/learn/jobs/kept_run_check.ts).
import { isPresetName, PRESETS } from '../model/config.ts';
import { isEnvironmentName, namedWorld, unknownWorld, worldOrDefault, type EnvironmentName } from '../worlds/names.ts';
import { settingProblem } from '../common/setting_range.ts';
import { TRAIN_SETTINGS, isConfigKey, type TrainConfig } from './config.ts';
import { isAlgo, ofAlgo } from './arms.ts';
import {
  MAX_RECORD_BYTES,
  RECORD_FORMAT,
  RECORD_INDEX_FORMAT,
  RECORD_VERSION,
  type ArmRole,
  type CurvePoint,
  type Interval,
  type RecordIndex,
  type RecordIndexEntry,
  type RecordedArm,
  type RecordedDifference,
  type RecordedEpisode,
  type RecordedRun,
  type RecordedSeed,
  type RecordedSkill,
  type RecordedStep,
  type RecordedTeacherCheck,
} from './recorded_run.ts';

export class RecordedRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordedRunError';
  }
}

export function refuse(message: string): never {
  throw new RecordedRunError(message);
}

export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

type Fields = Record<string, unknown>;

export function object(v: unknown, at: string): Fields {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) refuse(`${at} is ${show(v)}, not an object`);
  return v as Fields;
}

export function array(v: unknown, at: string, max = 1e6): unknown[] {
  if (!Array.isArray(v)) refuse(`${at} is ${show(v)}, not a list`);
  if (v.length > max) refuse(`${at} has ${v.length} entries, more than ${max}`);
  return v;
}

function text(v: unknown, at: string, max = 2000): string {
  if (typeof v !== 'string') refuse(`${at} is ${show(v)}, not text`);
  if (v.length > max) refuse(`${at} is ${v.length} characters long, more than ${max}`);
  return v;
}

export function num(v: unknown, at: string, lo = -Infinity, hi = Infinity): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi)
    refuse(`${at} is ${show(v)}, not a number in [${lo}, ${hi}]`);
  return v;
}

export function whole(v: unknown, at: string, lo: number, hi: number): number {
  if (!Number.isInteger(v)) refuse(`${at} is ${show(v)}, not a whole number`);
  return num(v, at, lo, hi);
}

function rate(v: unknown, at: string): number {
  return num(v, at, 0, 1);
}

function rateOrNull(v: unknown, at: string): number | null {
  return v === null ? null : rate(v, at);
}

function bool(v: unknown, at: string): boolean {
  if (typeof v !== 'boolean') refuse(`${at} is ${show(v)}, not true or false`);
  return v;
}

function algo(v: unknown, at: string) {
  if (typeof v !== 'string' || !isAlgo(v)) refuse(`${at} is ${show(v)}, not an algorithm`);
  return v;
}

function preset(v: unknown): string {
  if (typeof v !== 'string' || !isPresetName(v))
    refuse(`preset is ${show(v)}, not one of ${Object.keys(PRESETS).join(', ')}`);
  return v;
}

/**
 * A record's or an index line's world, as it is kept: absent for the default world (a record written before the
 * shop names none), by its name for another; a name that is no world's is refused with the list of the worlds.
 */
function world(v: unknown, at: string): { env?: EnvironmentName } {
  if (v === undefined) return {};
  if (typeof v !== 'string' || !isEnvironmentName(v)) refuse(`${at}: ${unknownWorld(v)}`);
  const named = namedWorld(v);
  return named === undefined ? {} : { env: named };
}

/** A difference may be negative: its value and interval lie in [-1, 1]. */
function interval(v: unknown, at: string, lo = 0): Interval {
  const o = object(v, at);
  const ci = array(o.ci, `${at}.ci`);
  if (ci.length !== 2) refuse(`${at}.ci has ${ci.length} bounds, not 2`);
  // A bootstrap over no common seeds gives no figure: NaN in the report, null in JSON.
  const bound = (x: unknown, where: string) => (x === null ? NaN : num(x, where, lo, 1));
  return { value: bound(o.value, `${at}.value`), ci: [bound(ci[0], `${at}.ci[0]`), bound(ci[1], `${at}.ci[1]`)] };
}

function split<T>(v: unknown, at: string, each: (x: unknown, where: string) => T): { seen: T; unseen: T } {
  const o = object(v, at);
  return { seen: each(o.seen, `${at}.seen`), unseen: each(o.unseen, `${at}.unseen`) };
}

const isRateOrNull = (x: unknown) => x === null || (typeof x === 'number' && x >= 0 && x <= 1);

/**
 * Point `i` of a curve (`curve` names it). A record holds up to tens of thousands of points: a good one is
 * taken without building the names a refusal would use.
 */
export function curvePoint(v: unknown, curve: string, i: number, updates: number): CurvePoint {
  if (Array.isArray(v) && v.length === 4) {
    const [update, episodes, seen, unseen] = v as unknown[];
    const whole = (x: unknown, hi: number) => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= hi;
    if (whole(update, updates) && whole(episodes, 1e12) && isRateOrNull(seen) && isRateOrNull(unseen))
      return v as CurvePoint;
  }
  const at = `${curve}[${i}]`;
  const p = array(v, at);
  if (p.length !== 4) refuse(`${at} has ${p.length} entries, not [update, episodes, seen, unseen]`);
  return [
    whole(p[0], `${at}[0]`, 0, updates),
    whole(p[1], `${at}[1]`, 0, 1e12),
    rateOrNull(p[2], `${at}[2]`),
    rateOrNull(p[3], `${at}[3]`),
  ];
}

function seedRun(v: unknown, at: string, updates: number): RecordedSeed {
  const o = object(v, at);
  const curve = array(o.curve, `${at}.curve`, updates + 1).map((p, i) => curvePoint(p, `${at}.curve`, i, updates));
  for (let i = 1; i < curve.length; i++) {
    if (curve[i][0] <= curve[i - 1][0])
      refuse(`${at}.curve[${i}] is at update ${curve[i][0]}, not after update ${curve[i - 1][0]}`);
  }
  return { seed: whole(o.seed, `${at}.seed`, 0, 1e9), curve, final: split(o.final, `${at}.final`, rate) };
}

const ROLES: readonly ArmRole[] = ['main', 'control', 'ablation'];

function arm(v: unknown, at: string, updates: number): RecordedArm {
  const o = object(v, at);
  if (!ROLES.includes(o.role as ArmRole)) refuse(`${at}.role is ${show(o.role)}, not one of ${ROLES.join(', ')}`);
  return {
    algo: algo(o.algo, `${at}.algo`),
    role: o.role as ArmRole,
    lr: num(o.lr, `${at}.lr`, 0, 1),
    ...(o.lambda === undefined ? {} : { lambda: setting('lambda', o.lambda, `${at}.lambda`) }),
    ...(o.rehearsal === undefined ? {} : { rehearsal: setting('rehearsal', o.rehearsal, `${at}.rehearsal`) }),
    final: split(o.final, `${at}.final`, (x, w) => interval(x, w)),
    seeds: array(o.seeds, `${at}.seeds`, 1000).map((s, i) => seedRun(s, `${at}.seeds[${i}]`, updates)),
    ...(o.teacher === undefined ? {} : { teacher: teacherChecks(o.teacher, `${at}.teacher`, updates) }),
  };
}

/** An arm's teacher checks: at updates 0 (the warm start) to the last, in order, each effect in [-1, 1]. */
function teacherChecks(v: unknown, at: string, updates: number): RecordedTeacherCheck[] {
  const checks = array(v, at, updates + 1).map((c, i): RecordedTeacherCheck => {
    const where = `${at}[${i}]`;
    const o = object(c, where);
    return {
      update: whole(o.update, `${where}.update`, 0, updates),
      seeds: whole(o.seeds, `${where}.seeds`, 1, 1000),
      none: rate(o.none, `${where}.none`),
      own: rate(o.own, `${where}.own`),
      other: rate(o.other, `${where}.other`),
      blank: rate(o.blank, `${where}.blank`),
      block: interval(o.block, `${where}.block`, -1),
      content: interval(o.content, `${where}.content`, -1),
    };
  });
  for (let i = 1; i < checks.length; i++)
    if (checks[i].update <= checks[i - 1].update)
      refuse(`${at}[${i}] is at update ${checks[i].update}, not after update ${checks[i - 1].update}`);
  return checks;
}

/** A value of the trainer's setting `key`, within the settings table's range. */
function setting(key: keyof TrainConfig, v: unknown, at: string): number {
  const problem = settingProblem(key, TRAIN_SETTINGS[key], v);
  if (problem) refuse(`${at} is ${show(v)}: ${problem}`);
  return v as number;
}

/** The benchmark's base configuration: the trainer's settings by name, each within its range. */
function config(v: unknown, at: string): Partial<TrainConfig> {
  const o = object(v, at);
  const out: Partial<TrainConfig> = {};
  for (const [key, value] of Object.entries(o)) {
    if (!isConfigKey(key)) refuse(`${at}.${key} is not a training setting`);
    out[key] = setting(key, value, `${at}.${key}`);
  }
  return out;
}

function difference(v: unknown, at: string): RecordedDifference {
  const o = object(v, at);
  return {
    a: algo(o.a, `${at}.a`),
    b: o.b === 'warm start' ? 'warm start' : algo(o.b, `${at}.b`),
    seeds: array(o.seeds, `${at}.seeds`, 1000).map((s, i) => whole(s, `${at}.seeds[${i}]`, 0, 1e9)),
    ...split(o, at, (x, w) => interval(x, w, -1)),
  };
}

function skill(v: unknown, at: string): RecordedSkill | null {
  if (v === null) return null;
  const o = object(v, at);
  return { text: text(o.text, `${at}.text`), valid: bool(o.valid, `${at}.valid`) };
}

function perToken(v: unknown, at: string, n: number): (number | null)[] {
  const a = array(v, at);
  if (a.length !== n) refuse(`${at} has ${a.length} numbers for ${n} tokens`);
  return a.map((x, k) => (x === null ? null : num(x, `${at}[${k}]`)));
}

export function episode(v: unknown, at: string, updates: number): RecordedEpisode {
  const o = object(v, at);
  const tokens = array(o.tokens, `${at}.tokens`, 10_000).map((t, k) => text(t, `${at}.tokens[${k}]`, 100));
  const steps = array(o.steps, `${at}.steps`, 1000).map((s, k): RecordedStep => {
    const step = object(s, `${at}.steps[${k}]`);
    return {
      action: text(step.action, `${at}.steps[${k}].action`),
      valid: bool(step.valid, `${at}.steps[${k}].valid`),
      tokens: whole(step.tokens, `${at}.steps[${k}].tokens`, 0, 10_000),
    };
  });
  const counted = steps.reduce((n, s) => n + s.tokens, 0);
  if (counted !== tokens.length) refuse(`${at}.steps count ${counted} tokens, but the episode has ${tokens.length}`);
  return {
    algo: algo(o.algo, `${at}.algo`),
    seed: whole(o.seed, `${at}.seed`, 0, 1e9),
    update: whole(o.update, `${at}.update`, 1, updates),
    goal: text(o.goal, `${at}.goal`),
    taskType: text(o.taskType, `${at}.taskType`, 100),
    won: bool(o.won, `${at}.won`),
    reward: num(o.reward, `${at}.reward`),
    advantage: num(o.advantage, `${at}.advantage`),
    skill: skill(o.skill, `${at}.skill`),
    ownSkill: skill(o.ownSkill, `${at}.ownSkill`),
    steps,
    tokens,
    delta: perToken(o.delta, `${at}.delta`, tokens.length),
    gate: perToken(o.gate, `${at}.gate`, tokens.length),
    coef: perToken(o.coef, `${at}.coef`, tokens.length),
  };
}

/** A recorded run read from JSON text, checked field by field; throws RecordedRunError (one line) if it is not one. */
export function parseRecordedRun(json: string): RecordedRun {
  if (json.length > MAX_RECORD_BYTES)
    refuse(`the record is ${json.length} bytes, over the ${MAX_RECORD_BYTES}-byte budget`);
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (err) {
    refuse(`the record is not JSON (${(err as Error).message.split('\n')[0]})`);
  }
  return checkRecordedRun(v);
}

function checkRecordedRun(v: unknown): RecordedRun {
  const o = object(v, 'the record');
  if (o.format !== RECORD_FORMAT)
    refuse(`the record's format is ${show(o.format)}, not ${JSON.stringify(RECORD_FORMAT)}`);
  if (o.version !== RECORD_VERSION)
    refuse(`the record is of version ${show(o.version)}; this page reads version ${RECORD_VERSION}`);
  const updates = whole(o.updates, 'updates', 1, 1e9);
  const games = object(o.evalGames, 'evalGames');
  const run: RecordedRun = {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    ...world(o.env, 'env'),
    command: text(o.command, 'command'),
    commit: text(o.commit, 'commit', 100),
    created: text(o.created, 'created', 100),
    preset: preset(o.preset),
    updates,
    episodesPerUpdate: whole(o.episodesPerUpdate, 'episodesPerUpdate', 1, 1e6),
    evalEvery: whole(o.evalEvery, 'evalEvery', 1, 1e9),
    evalGames: {
      seen: whole(games.seen, 'evalGames.seen', 0, 1e6),
      unseen: whole(games.unseen, 'evalGames.unseen', 0, 1e6),
    },
    ...(o.config === undefined ? {} : { config: config(o.config, 'config') }),
    warmstart: split(o.warmstart, 'warmstart', rate),
    arms: array(o.arms, 'arms', 100).map((a, i) => arm(a, `arms[${i}]`, updates)),
    differences: array(o.differences, 'differences', 1000).map((d, i) => difference(d, `differences[${i}]`)),
    episodes: array(o.episodes, 'episodes', 10_000).map((e, i) => episode(e, `episodes[${i}]`, updates)),
  };
  if (o.headline === undefined) return run;
  const headline = algo(o.headline, 'headline');
  if (!run.arms.some(ofAlgo(headline))) refuse(`headline is ${show(headline)}, not one of the record's arms`);
  return { ...run, headline };
}

/** runs/index.json, checked; a record's file name must be a plain name beside the index. */
export function checkRecordIndex(v: unknown): RecordIndex {
  const o = object(v, 'the index');
  if (o.format !== RECORD_INDEX_FORMAT)
    refuse(`the index's format is ${show(o.format)}, not ${JSON.stringify(RECORD_INDEX_FORMAT)}`);
  const runs = array(o.runs, 'runs', 1000).map((r, i): RecordIndexEntry => {
    const e = object(r, `runs[${i}]`);
    const file = text(e.file, `runs[${i}].file`, 200);
    if (!/^[A-Za-z0-9._-]+\.json$/.test(file) || file.startsWith('.'))
      refuse(`runs[${i}].file is ${show(file)}, not a plain file name ending in .json`);
    return {
      file,
      ...world(e.env, `runs[${i}].env`),
      created: text(e.created, `runs[${i}].created`, 100),
      command: text(e.command, `runs[${i}].command`),
      commit: text(e.commit, `runs[${i}].commit`, 100),
    };
  });
  return { format: RECORD_INDEX_FORMAT, runs };
}

/** The world a record or an index line names, or the default world where it names none. */
export function recordWorld(r: { env?: EnvironmentName }): EnvironmentName {
  return worldOrDefault(r.env);
}

/** The index's newest record of `world` (by its `created` time), or null when it lists none of that world. */
export function newestRecord(index: RecordIndex, world: EnvironmentName): RecordIndexEntry | null {
  return index.runs.reduce<RecordIndexEntry | null>(
    (best, r) =>
      recordWorld(r) === world && (best === null || Date.parse(r.created) > Date.parse(best.created)) ? r : best,
    null,
  );
}
