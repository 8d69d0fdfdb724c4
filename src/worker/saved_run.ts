// A saved run as stored in this browser, and the one check that every stored record passes before the page
// offers it: a record is read like any other input (a link, a file), so a damaged one, one written by an
// older page, or one whose settings the trainer refuses is named with a one-line reason and never offered.
//
// Each run has its own record, under the id the run was given when it started, so two tabs never write over
// each other's run. At most MAX_SAVED_RUNS records are kept: a save that goes past it drops the records saved
// longest ago (records too damaged to say when they were saved go first).
import { messageOf } from '../common/errors.ts';
import { theWorld } from '../worlds/facts.ts';
import { worldOrDefault, type EnvironmentName } from '../worlds/names.ts';
import { readCheckpoint, type Checkpoint } from '../model/checkpoint.ts';
import { configDifference, presetConfig } from '../model/config.ts';
import { checkConfig, TRAIN_SETTINGS } from '../rl/config.ts';
import { currentAlgoName } from '../rl/arms.ts';
import { MAX_RUN_UPDATES, runMetadata, type RunMetadata } from '../rl/run_metadata.ts';
import type { RunId, SavedRunInfo, UpdateMetrics } from './protocol.ts';
import {
  PAGE_TRAIN_KEYS,
  SETTING_KEYS,
  runIdsOf,
  settingsFrom,
  trainConfigOf,
  type PageTrainKey,
  type Settings,
} from '../rl/page_settings.ts';

export const MAX_SAVED_RUNS = 5;
/** The latest time a record may say it was saved at (the largest a Date holds, in ms). */
const MAX_TIME = 8.64e15;
/** A run id: the UUID a run gets when it starts (or the key of the single record older pages kept). */
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface SavedRunFiles {
  id: RunId;
  /** The run's checkpoint (weights, AdamW state, metadata) and its reference weights (model/checkpoint.ts). */
  current: Uint8Array;
  reference: Uint8Array;
}

export interface SavedRun extends SavedRunInfo {
  runs: SavedRunFiles[];
}

export type SavedRunCheck = { ok: true; run: SavedRun } | { ok: false; problem: string };

/** What the check needs of the tokenizer: the checkpoints must be of its vocabulary. */
interface Vocabulary {
  hash: string;
  vocabSize: number;
}

/** The vocabulary of each world's tokenizer (text/tokenizer.ts, tokenizerOf): a run's checkpoints are of its world's. */
export type VocabularyOf = (env: EnvironmentName) => Vocabulary;

class RecordProblem extends Error {}

function refuse(problem: string): never {
  throw new RecordProblem(problem);
}

/** A stored value as a refusal names it: short, on one line. */
function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return String(v);
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function integerIn(v: unknown, min: number, max: number, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    refuse(`${what} is ${show(v)}, not a whole number in [${min}, ${max}]`);
  return v;
}

/** How each field of an update's metrics is stored; the type keeps the table complete. */
const METRIC_FIELDS = {
  run: 'run',
  update: 'update',
  episodes: 'number',
  successTrain: 'number?',
  evalSeen: 'number?',
  evalUnseen: 'number?',
  scoreTrain: 'optional number?',
  scoreSeen: 'optional number?',
  scoreUnseen: 'optional number?',
  meanReward: 'number?',
  L_GRPO: 'number?',
  L_OPD: 'number?',
  KL: 'number?',
  total: 'number?',
  lambda: 'added number?',
  beta: 'added number?',
  meanDelta: 'number?',
  meanGate: 'number?',
  validSkillRate: 'number?',
  degenerateSkillRate: 'added number?',
  skillFidelity: 'number?',
  skillPlaceTrue: 'added number?',
  skillPlaceFalse: 'added number?',
  corrDeltaAdvantage: 'added number?',
  corrDeltaAdvantageWon: 'added number?',
  corrDeltaAdvantageLost: 'added number?',
  corrDeltaExpert: 'added number?',
  meanAbsDelta: 'added number?',
  forcedShare: 'added number?',
  zeroVarianceGroups: 'added number?',
  teacherNoSkill: 'added number?',
  teacherOwnSkill: 'added number?',
  teacherOtherSkill: 'added number?',
  teacherBlankSkill: 'added number?',
  validationKl: 'added number?',
  gradNorm: 'number?',
  gradNormGrpo: 'added number?',
  gradNormOpd: 'added number?',
  gradNormRatio: 'added number?',
  opdShare: 'added number?',
  opdDeltaShare: 'added number?',
  meanDivergence: 'added number?',
  tokens: 'number?',
  tokensPerSecond: 'number?',
  wallMs: 'number?',
  rolloutMs: 'added number?',
  rewardsMs: 'added number?',
  skillsMs: 'added number?',
  rescoreMs: 'added number?',
  lossMs: 'added number?',
  optimizerMs: 'added number?',
  currentPassMs: 'added number?',
  referencePassMs: 'added number?',
  evalMs: 'added number?',
  updateMs: 'added number?',
  skipped: 'string?',
} as const satisfies Record<keyof UpdateMetrics, string>;

/** One point of the curves, with only the known fields; NaN stays (the loss of an update refused as non-finite). */
function metricsFrom(v: unknown, where: string, runs: readonly RunId[], updates: number): UpdateMetrics {
  if (!isRecord(v)) refuse(`${where} is ${show(v)}, not an update's metrics`);
  const out: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(METRIC_FIELDS)) {
    // A field added after a record was saved reads as null in it ('added number?'); one that only some worlds
    // have (the score) stays absent where it was ('optional number?').
    if (kind === 'optional number?' && own(v, field) === undefined) continue;
    const x = kind === 'added number?' && own(v, field) === undefined ? null : own(v, field);
    const at = `${where}.${field}`;
    if (kind === 'run') {
      if (typeof x !== 'string' || !(runs as readonly string[]).includes(currentAlgoName(x)))
        refuse(`${at} is ${show(x)}, not one of this run's algorithms (${runs.join(', ')})`);
      out[field] = currentAlgoName(x);
      continue;
    } else if (kind === 'update') {
      integerIn(x, 0, updates, at);
    } else if (kind === 'string?') {
      if (x !== null && typeof x !== 'string') refuse(`${at} is ${show(x)}, not text or null`);
    } else if (typeof x !== 'number' && !(kind.endsWith('number?') && x === null)) {
      refuse(`${at} is ${show(x)}, not a number${kind.endsWith('number?') ? ' or null' : ''}`);
    }
    out[field] = x;
  }
  return out as unknown as UpdateMetrics;
}

function addedLater(key: keyof Settings): boolean {
  // A run saved before the page had a world choice played the household, the default.
  if (key === 'env') return true;
  return (
    (PAGE_TRAIN_KEYS as readonly string[]).includes(key) && TRAIN_SETTINGS[key as PageTrainKey].before !== undefined
  );
}

function settingsOf(v: unknown): Settings {
  if (!isRecord(v)) refuse(`settings is ${show(v)}, not an object`);
  // A training setting added after a run was saved (its table row has a `before` value) reads as that value.
  for (const key of SETTING_KEYS)
    if (own(v, key) === undefined && !addedLater(key)) refuse(`settings.${key} is missing`);
  // A run saved before its algorithm was renamed goes on under today's name (rl/config.ts, FORMER_ALGO_NAMES).
  const { settings, notices: all } = settingsFrom(v);
  const notices = all.filter(
    (n) => !(n.key === 'algo' && currentAlgoName(n.value) === settings.algo && n.value !== settings.algo),
  );
  if (notices.length > 0) refuse(`settings: ${notices[0].key}=${notices[0].value} ${notices[0].reason}`);
  try {
    checkConfig(trainConfigOf(settings));
  } catch (err) {
    refuse(`settings: ${messageOf(err)}`);
  }
  return settings;
}

function checkpointOf(bytes: unknown, what: string, settings: Settings, vocab: Vocabulary): Checkpoint {
  if (!(bytes instanceof Uint8Array)) refuse(`${what} is ${show(bytes)}, not checkpoint bytes`);
  let ck: Checkpoint;
  try {
    ck = readCheckpoint(bytes, { vocabHash: vocab.hash });
  } catch (err) {
    refuse(`${what}: ${messageOf(err)}`);
  }
  const difference = configDifference(ck.config, presetConfig(settings.preset, vocab.vocabSize));
  if (difference) refuse(`${what} is not of the ${settings.preset} preset's model: ${difference}`);
  return ck;
}

function runFilesOf(v: unknown, settings: Settings, updates: number, vocab: Vocabulary): SavedRunFiles[] {
  const ids = runIdsOf(settings.algo);
  if (!Array.isArray(v)) refuse(`runs is ${show(v)}, not a list`);
  if (v.length !== ids.length) refuse(`runs holds ${v.length} runs; the ${settings.algo} algorithm has ${ids.length}`);
  return ids.map((id) => {
    const files = v.find((r) => {
      const named = isRecord(r) ? own(r, 'id') : undefined;
      return typeof named === 'string' && currentAlgoName(named) === id;
    });
    if (!isRecord(files)) refuse(`runs has no ${id} run`);
    const current = checkpointOf(own(files, 'current'), `the ${id} checkpoint`, settings, vocab);
    checkpointOf(own(files, 'reference'), `the ${id} reference checkpoint`, settings, vocab);
    let meta: RunMetadata;
    try {
      meta = runMetadata(current, settings.preset);
    } catch (err) {
      refuse(`the ${id} checkpoint: ${messageOf(err)}`);
    }
    if (meta.algo !== id || meta.seed !== settings.seed)
      refuse(`the ${id} checkpoint is of ${meta.algo} seed ${meta.seed}, the settings say ${id} seed ${settings.seed}`);
    const played = worldOrDefault(meta.env);
    if (played !== settings.env)
      refuse(`the ${id} checkpoint played ${theWorld(played)}, the settings say ${theWorld(settings.env)}`);
    if (meta.updates !== updates)
      refuse(`the ${id} checkpoint is at update ${meta.updates}, the record says ${updates}`);
    return { id, current: own(files, 'current') as Uint8Array, reference: own(files, 'reference') as Uint8Array };
  });
}

function savedRunOf(value: unknown, key: string, vocabOf: VocabularyOf): SavedRun {
  if (!RUN_ID.test(key)) refuse(`it is stored under ${show(key)}, not a run id`);
  if (!isRecord(value)) refuse(`the record is ${show(value)}, not an object`);
  const id = own(value, 'id') ?? key;
  if (id !== key) refuse(`it is stored under ${show(key)} but names the run ${show(id)}`);
  const settings = settingsOf(own(value, 'settings'));
  const updates = integerIn(own(value, 'updates'), 1, MAX_RUN_UPDATES, 'updates');
  const savedAt = own(value, 'savedAt');
  if (typeof savedAt !== 'number' || !(savedAt >= 0 && savedAt <= MAX_TIME))
    refuse(`savedAt is ${show(savedAt)}, not a time`);
  const ids = runIdsOf(settings.algo);
  const curvesValue = own(value, 'curves');
  if (!Array.isArray(curvesValue)) refuse(`curves is ${show(curvesValue)}, not a list`);
  // A point per run and update, and the warm start's evaluation (update 0).
  if (curvesValue.length > (updates + 1) * ids.length)
    refuse(
      `curves holds ${curvesValue.length} points, more than ${updates} updates and the warm start of ${ids.length} run(s) give`,
    );
  const curves = curvesValue.map((m, i) => metricsFrom(m, `curves[${i}]`, ids, updates));
  const runs = runFilesOf(own(value, 'runs'), settings, updates, vocabOf(settings.env));
  return { id, settings, updates, savedAt, curves, runs };
}

/** Control characters (a newline, an ANSI escape) shown as escapes, so that a refusal stays one line. */
function oneLine(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it finds the control characters to escape
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The saved run a stored record holds, or why it cannot be resumed (one line). The record's settings are
 * checked as a link's would be and then by the trainer's own check; the checkpoints are read in full, and must
 * match the settings' model, algorithms, seed and update count.
 */
export function savedRunFrom(value: unknown, key: string, vocabOf: VocabularyOf): SavedRunCheck {
  try {
    return { ok: true, run: savedRunOf(value, key, vocabOf) };
  } catch (err) {
    if (err instanceof RecordProblem) return { ok: false, problem: oneLine(err.message) };
    return { ok: false, problem: oneLine(`the record could not be read: ${messageOf(err)}`) };
  }
}

/** The records a store drops to keep `keep`: the oldest by savedAt, records without a usable savedAt first. */
export function runsToDrop(entries: readonly { key: string; savedAt: unknown }[], keep = MAX_SAVED_RUNS): string[] {
  const when = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : -Infinity);
  const newestFirst = [...entries].sort((a, b) => when(b.savedAt) - when(a.savedAt) || (a.key < b.key ? -1 : 1));
  return newestFirst.slice(keep).map((e) => e.key);
}
