// Every setting of a playground run, and the URL hash that holds them all so that a link reproduces the run.
// The training settings the page exposes take their ranges and defaults from the trainer's table
// (rl/config.ts); the page adds their names in the hash and settings of its own (model preset, algorithm, the
// seed, the pace, evaluation and checkpoint intervals, the backend) and the world the run plays (`env`: the
// household unless the link names the shop, so that a link written before the shop existed means what it meant). Labels and help texts are the page's
// (ui/setting_labels.ts).
//
//   #env=household&preset=micro&algo=seed&lambda=0.5&beta=5&group=8&tasks=4&lr=0.001&clip=0.2&kl=0.01&temp=1&evaltemp=0.4
//    &history=5&maxsteps=15&decoding=constrained&seed=1&speed=1&evalevery=5&evaleps=8&ckpt=5&backend=auto
//
// Parsing never fails: a missing key takes its default, and a malformed or out-of-range value, or one that
// rounds to 0, keeps the default with a notice naming the key, the value and why (the rule of `--set` on the
// command line: common/setting_range.ts, writtenValueProblem). An unknown key is reported and ignored; past a few, one
// notice counts the rest.
import { factsOf } from '../worlds/facts.ts';
import { DEFAULT_WORLD, ENVIRONMENT_NAMES, isEnvironmentName, type EnvironmentName } from '../worlds/names.ts';
import { PRESET_NAMES, isPresetName, type PresetName } from '../model/config.ts';
import { parseDecimal, writtenValueProblem, type SettingRange } from '../common/setting_range.ts';
import { PAPER_CONFIG, TRAIN_SETTINGS, defaultConfig, type TrainConfig } from './config.ts';
import { ALGOS, currentAlgoName, type Algo, BASELINE } from './arms.ts';

/** The trainer's algorithms, and 'both': SEED and GRPO side by side. */
export const ALGORITHMS = [...ALGOS, 'both'] as const;
export type Algorithm = Algo | 'both';

export const BACKENDS = ['auto', 'webgpu', 'cpu'] as const;
export type BackendChoice = (typeof BACKENDS)[number];

/** The trainer's `constrained` switch, as the page names its two values. */
export const DECODINGS = ['constrained', 'free'] as const;
type Decoding = (typeof DECODINGS)[number];

/** The trainer's settings that the page shows, in the order of the controls, with their names in the hash. */
const TRAIN_HASH_NAMES = {
  lambda: 'lambda',
  beta: 'beta',
  groupSize: 'group',
  tasksPerUpdate: 'tasks',
  lr: 'lr',
  clip: 'clip',
  klCoef: 'kl',
  temperature: 'temp',
  evalTemperature: 'evaltemp',
  history: 'history',
  maxSteps: 'maxsteps',
  jsdAlpha: 'jsd',
  advisorAlpha: 'advisor',
  rewardDirected: 'directed',
} as const satisfies Partial<Record<keyof TrainConfig, string>>;
export type PageTrainKey = keyof typeof TRAIN_HASH_NAMES;
export const PAGE_TRAIN_KEYS = Object.keys(TRAIN_HASH_NAMES) as PageTrainKey[];

export interface NumberSpec extends SettingRange {
  hash: string;
}

/** The most eval games per split a run of a world plays: every game of its smaller fixed eval set. */
function evalGamesOf(env: EnvironmentName): number {
  const { seen, unseen } = factsOf(env).evalCounts;
  return Math.min(seen, unseen);
}

/** The page's own numeric settings. */
const PAGE_NUMBERS = {
  /** The one seed of the run (tasks, sampling). */
  seed: { kind: 'integer', min: 0, max: 0xffffffff, hash: 'seed' },
  /** Pause between updates while playing, in updates per second; 0 = as fast as the backend goes. */
  speed: { kind: 'real', min: 0, max: 100, hash: 'speed' },
  /** Evaluate on eval-seen and eval-unseen at the warm start (update 0), after update 1 and every this many updates. */
  evalEvery: { kind: 'integer', min: 1, max: 1000, hash: 'evalevery' },
  /**
   * Games per eval split (the first games of the fixed eval sets): up to the most of any world here, and in a
   * run up to its own world's smaller set (numberSpecOf: the household's 134, the shop's 200).
   */
  evalEpisodes: { kind: 'integer', min: 1, max: Math.max(...ENVIRONMENT_NAMES.map(evalGamesOf)), hash: 'evaleps' },
  /** Checkpoint the run to IndexedDB every this many updates. */
  checkpointEvery: { kind: 'integer', min: 1, max: 1000, hash: 'ckpt' },
} as const satisfies Record<string, NumberSpec>;
export type PageNumberKey = keyof typeof PAGE_NUMBERS;
export const PAGE_NUMBER_KEYS = Object.keys(PAGE_NUMBERS) as PageNumberKey[];

export interface Settings extends Pick<TrainConfig, PageTrainKey>, Record<PageNumberKey, number> {
  /** The world the run plays (src/worlds/names.ts). */
  env: EnvironmentName;
  preset: PresetName;
  algo: Algorithm;
  decoding: Decoding;
  backend: BackendChoice;
}

export type NumericKey = PageTrainKey | PageNumberKey;
type ChoiceKey = Exclude<keyof Settings, NumericKey>;

interface ChoiceSpec {
  hash: string;
  options: readonly string[];
}

function trainSpec(key: PageTrainKey): NumberSpec {
  const { kind, min, max, belowMax } = TRAIN_SETTINGS[key];
  return { kind, min, max, belowMax, hash: TRAIN_HASH_NAMES[key] };
}

export const NUMBER_SPECS: Readonly<Record<NumericKey, NumberSpec>> = {
  ...(Object.fromEntries(PAGE_TRAIN_KEYS.map((k) => [k, trainSpec(k)])) as Record<PageTrainKey, NumberSpec>),
  ...PAGE_NUMBERS,
};

export const CHOICE_SPECS: Readonly<Record<ChoiceKey, ChoiceSpec>> = {
  env: { hash: 'env', options: ENVIRONMENT_NAMES },
  preset: { hash: 'preset', options: PRESET_NAMES },
  algo: { hash: 'algo', options: ALGORITHMS },
  decoding: { hash: 'decoding', options: DECODINGS },
  backend: { hash: 'backend', options: BACKENDS },
};

/** Order of keys in the hash. */
export const SETTING_KEYS: readonly (keyof Settings)[] = [
  'env',
  'preset',
  'algo',
  ...PAGE_TRAIN_KEYS,
  'decoding',
  ...PAGE_NUMBER_KEYS,
  'backend',
];

/**
 * The page's defaults: the trainer's defaults for the preset (rl/config.ts, where the tiny presets differ from
 * the paper and why), with the micro preset cut to a size that a software adapter trains in seconds per update.
 * tiny, the page's default, evaluates on every game of both splits (134 each) every 10 updates: a rise of 15
 * points must stand out of the noise of one evaluation (bench/page.md measures it).
 */
const PAGE_OVERRIDES: Readonly<Record<PresetName, Partial<Settings>>> = {
  micro: { groupSize: 4, tasksPerUpdate: 2, maxSteps: 8, history: 8, lr: 1e-3 },
  tiny: { evalEvery: 10, evalEpisodes: 134 },
  small: {},
};

/**
 * The trainer's defaults of a run of a world at a preset: the preset's, with what the world changes (a shop
 * episode is played in windows of its last steps: its facts' trainDefaults), as the command line takes them.
 */
function worldConfig(preset: PresetName, env: EnvironmentName): TrainConfig {
  return { ...defaultConfig(preset), ...factsOf(env).trainDefaults };
}

/** The page's training settings taken from a trainer config. */
function pageValues(c: TrainConfig): Pick<Settings, PageTrainKey | 'decoding'> {
  const values = Object.fromEntries(PAGE_TRAIN_KEYS.map((k) => [k, c[k]])) as Pick<TrainConfig, PageTrainKey>;
  return { ...values, decoding: c.constrained ? 'constrained' : 'free' };
}

/**
 * The playground's defaults for a preset in a world: the page's own choices for the preset, then what the world
 * changes of the trainer's settings (its episode layout wins over the page's cut of the micro preset).
 */
export function defaultSettings(preset: PresetName = 'tiny', env: EnvironmentName = DEFAULT_WORLD): Settings {
  const world: Readonly<Partial<TrainConfig>> = factsOf(env).trainDefaults;
  const worldValues = Object.fromEntries(
    PAGE_TRAIN_KEYS.filter((k) => world[k] !== undefined).map((k) => [k, world[k]]),
  );
  return {
    env,
    preset,
    algo: 'seed',
    ...pageValues(defaultConfig(preset)),
    seed: 1,
    speed: 0,
    checkpointEvery: 5,
    evalEvery: 5,
    evalEpisodes: preset === 'micro' ? 8 : 32,
    backend: 'auto',
    ...PAGE_OVERRIDES[preset],
    ...worldValues,
  };
}

/** The page's default run: tiny, from its warm start (bench/page.md). */
export const DEFAULT_SETTINGS: Readonly<Settings> = defaultSettings();

/** The settings with every training setting the page shows at the paper's value; model, seed and speed kept. */
export function withPaperValues(s: Settings): Settings {
  return { ...s, ...pageValues(PAPER_CONFIG) };
}

/** The trainer's config of a page run: the world's defaults at the preset with the page's training settings. */
export function trainConfigOf(s: Settings): TrainConfig {
  const config = worldConfig(s.preset, s.env);
  for (const key of PAGE_TRAIN_KEYS) config[key] = s[key];
  config.constrained = s.decoding === 'constrained' ? 1 : 0;
  return config;
}

/** The trainer runs of a page run: one per algorithm, SEED and GRPO for 'both'. */
export function runIdsOf(algo: Algorithm): Algo[] {
  return algo !== 'both' ? [algo] : ['seed', BASELINE];
}

export interface SettingNotice {
  key: string;
  value: string;
  /** Why the value was not used, and what was used instead. */
  message: string;
  /** Why the value was not used, alone ("is outside [0, 1)"): what a check that refuses rather than repairs says. */
  reason: string;
  /** Set on the one notice that stands for this many further keys that are not settings (no key or value of its own). */
  more?: number;
}

/** Keys that are not settings get a notice each up to this many; one more notice counts the rest. */
export const MAX_UNKNOWN_KEY_NOTICES = 5;

function notice(key: string, value: string, reason: string, instead: string): SettingNotice {
  return { key, value, message: `${reason}; ${instead}`, reason };
}

export interface ParsedHash {
  settings: Settings;
  notices: SettingNotice[];
  /**
   * The settings the hash names, in its order: each holds the hash's value or, where that was refused, the default
   * its notice names, and wins over any other default.
   */
  named: (keyof Settings)[];
}

/** The range of a numeric setting in a run of world `env`: the eval games per split are the world's own. */
export function numberSpecOf(key: NumericKey, env: EnvironmentName): NumberSpec {
  return key === 'evalEpisodes' ? { ...NUMBER_SPECS[key], max: evalGamesOf(env) } : NUMBER_SPECS[key];
}

/**
 * Why a value (written as `text`) is refused for a numeric setting of a run of world `env`, or null when it is
 * fine: the rule of `--set`.
 */
export function numberProblem(key: NumericKey, value: number, text: string, env: EnvironmentName): string | null {
  return writtenValueProblem(numberSpecOf(key, env), text, value);
}

function isNumericKey(key: keyof Settings): key is NumericKey {
  return key in NUMBER_SPECS;
}

function hashOf(key: keyof Settings): string {
  return isNumericKey(key) ? NUMBER_SPECS[key].hash : CHOICE_SPECS[key].hash;
}

const BY_HASH = new Map<string, keyof Settings>(SETTING_KEYS.map((k) => [hashOf(k), k]));

/**
 * The settings a hash describes. The preset and the world are read first, since the other defaults depend on
 * them; every other key falls back to their default.
 */
export function parseHash(hash: string): ParsedHash {
  const notices: SettingNotice[] = [];
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const entries: [string, string][] = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey);
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      notices.push(notice(rawKey, rawValue, 'is not valid URL encoding', 'ignored'));
      continue;
    }
    entries.push([key, value]);
  }

  // The first value of a key is the one used, the preset's and the world's too: the defaults follow those kept.
  const first = entries.find(([key]) => key === 'preset')?.[1];
  const world = entries.find(([key]) => key === 'env')?.[1];
  const settings = defaultSettings(
    first !== undefined && isPresetName(first) ? first : DEFAULT_SETTINGS.preset,
    world !== undefined && isEnvironmentName(world) ? world : DEFAULT_SETTINGS.env,
  );
  const seen = new Set<string>();
  const named: (keyof Settings)[] = [];
  let unknown = 0;
  for (const [key, value] of entries) {
    const name = BY_HASH.get(key);
    if (!name) {
      if (++unknown <= MAX_UNKNOWN_KEY_NOTICES) notices.push(notice(key, value, 'is not a setting', 'ignored'));
      continue;
    }
    if (seen.has(key)) {
      notices.push(notice(key, value, 'appears twice', 'the first value is kept'));
      continue;
    }
    seen.add(key);
    named.push(name);
    if (!isNumericKey(name)) {
      const { options } = CHOICE_SPECS[name];
      const renamed = name === 'algo' ? currentAlgoName(value) : value;
      if (renamed !== value) {
        // A link made before an algorithm was renamed still runs it, and says so.
        settings.algo = renamed as Algorithm;
        notices.push(notice(key, value, `is the former name of ${renamed}`, `using ${renamed}`));
      } else if (options.includes(value)) (settings as unknown as Record<string, unknown>)[name] = value;
      else
        notices.push(
          notice(key, value, `must be one of ${options.join(', ')}`, `keeping the default ${String(settings[name])}`),
        );
      continue;
    }
    const n = parseDecimal(value);
    const problem = Number.isNaN(n) ? 'not a number' : numberProblem(name, n, value, settings.env);
    if (problem) notices.push(notice(key, value, `is ${problem}`, `keeping the default ${settings[name]}`));
    else settings[name] = n;
  }
  const more = unknown - MAX_UNKNOWN_KEY_NOTICES;
  if (more > 0) {
    const reason = `and ${more} more key${more === 1 ? '' : 's'} that ${more === 1 ? 'is' : 'are'} not a setting`;
    notices.push({ key: '', value: '', reason, message: `${reason}; ignored`, more });
  }
  return { settings, notices, named };
}

/** The text with each lone surrogate (which URL encoding refuses) replaced by U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** The hash that reproduces these settings (every key, in SETTING_KEYS order). */
export function formatHash(s: Settings): string {
  const parts = SETTING_KEYS.map((key) => `${hashOf(key)}=${encodeURIComponent(String(s[key]))}`);
  return `#${parts.join('&')}`;
}

/** The settings whose change needs a fresh run (world, model shape, algorithm, seed, backend); others apply live. */
export const RESET_KEYS: ReadonlySet<keyof Settings> = new Set(['env', 'preset', 'algo', 'seed', 'backend']);

/** A preset's defaults in a world for a run that keeps the other choices a person made (algorithm, seed, backend). */
export function presetDefaultsKeeping(
  s: Settings,
  preset: PresetName = s.preset,
  env: EnvironmentName = s.env,
): Settings {
  return { ...defaultSettings(preset, env), algo: s.algo, seed: s.seed, backend: s.backend };
}

export function needsReset(before: Settings, after: Settings): boolean {
  for (const key of RESET_KEYS) if (before[key] !== after[key]) return true;
  return false;
}

/**
 * Settings read back from storage or a file: every known key validated as a hash value would be, and a value
 * of the wrong type (a string where a number belongs) refused with a notice rather than converted.
 */
export function settingsFrom(value: unknown): ParsedHash {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const parts: string[] = [];
  const wrongType: [keyof Settings, unknown][] = [];
  for (const key of SETTING_KEYS) {
    const v = Object.hasOwn(record, key) ? record[key] : undefined;
    if (v === undefined) continue;
    if (typeof v === (isNumericKey(key) ? 'number' : 'string'))
      parts.push(`${hashOf(key)}=${encodeURIComponent(wellFormed(String(v)))}`);
    else wrongType.push([key, v]);
  }
  const { settings, notices, named } = parseHash(parts.join('&'));
  for (const [key, v] of wrongType) {
    named.push(key);
    const label =
      typeof v === 'object'
        ? v === null
          ? 'null'
          : Array.isArray(v)
            ? 'an array'
            : 'an object'
        : `${typeof v} ${String(v)}`;
    notices.push(
      notice(
        hashOf(key),
        label,
        `is not a ${isNumericKey(key) ? 'number' : 'string'}`,
        `keeping the default ${String(settings[key])}`,
      ),
    );
  }
  return { settings, notices, named };
}
