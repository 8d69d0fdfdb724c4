// Every setting of a playground run, with its range, the playground's default and the paper's value
// (docs/seed-loss.md, "Settings"), and the URL hash that holds them all so that a link reproduces the run.
//
//   #preset=micro&algo=seed&lambda=0.5&beta=5&group=8&tasks=4&lr=0.001&clip=0.2&kl=0.01&temp=1&evaltemp=0.4
//    &history=5&maxsteps=15&decoding=constrained&seed=1&speed=1&evalevery=5&evaleps=8&ckpt=5&backend=auto
//
// Parsing never fails: a missing key takes its default, a malformed or out-of-range value takes its default
// and adds a notice naming the key, the value and why, and an unknown key is reported and ignored.
import { isPresetName, type PresetName } from '../model/config.ts';
import { PAPER_CONFIG, defaultConfig } from '../rl/config.ts';

export const ALGORITHMS = ['seed', 'grpo', 'both', 'seed-static', 'seed-shuffled', 'opid', 'seed-nogate'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export const ALGORITHM_LABELS: Readonly<Record<Algorithm, string>> = {
  seed: 'SEED',
  grpo: 'GRPO',
  both: 'SEED and GRPO side by side',
  'seed-static': 'SEED, static skill library (ablation)',
  'seed-shuffled': 'SEED, shuffled skills (control)',
  opid: 'OPID (Delta added to the advantage)',
  'seed-nogate': 'SEED without the gate (g = 1)',
};

export const BACKENDS = ['auto', 'webgpu', 'cpu'] as const;
export type BackendChoice = (typeof BACKENDS)[number];

export const DECODINGS = ['constrained', 'free'] as const;
export type Decoding = (typeof DECODINGS)[number];

export const PRESET_NAMES = ['micro', 'tiny', 'small'] as const satisfies readonly PresetName[];

export interface Settings {
  preset: PresetName;
  algo: Algorithm;
  /** lambda_opd: weight of the gated distillation term. */
  lambda: number;
  /** beta: sharpness of the gate sigmoid(beta * Delta). */
  beta: number;
  /** G: episodes per task (one GRPO group). */
  groupSize: number;
  /** B: tasks (groups) per update. */
  tasksPerUpdate: number;
  lr: number;
  /** eps_clip of the GRPO ratio. */
  clip: number;
  klCoef: number;
  /** Rollout sampling temperature. */
  temperature: number;
  /** Evaluation temperature (0 = greedy). */
  evalTemperature: number;
  /** Past steps kept in the policy's context (H). */
  history: number;
  maxSteps: number;
  decoding: Decoding;
  seed: number;
  /** Pause between updates while playing, in updates per second; 0 = as fast as the backend goes. */
  speed: number;
  /** Checkpoint the run to IndexedDB every this many updates. */
  checkpointEvery: number;
  /** Evaluate on eval-seen and eval-unseen after update 1 and every this many updates. */
  evalEvery: number;
  /** Games per eval split (the first games of the fixed eval sets). */
  evalEpisodes: number;
  backend: BackendChoice;
}

export type NumericKey = {
  [K in keyof Settings]: Settings[K] extends number ? K : never;
}[keyof Settings];
type ChoiceKey = Exclude<keyof Settings, NumericKey>;

interface NumberSpec {
  kind: 'number';
  hash: string;
  label: string;
  min: number;
  max: number;
  integer: boolean;
  step: number;
  help: string;
}

interface ChoiceSpec {
  kind: 'choice';
  hash: string;
  label: string;
  options: readonly string[];
  help: string;
}

export const NUMBER_SPECS: Readonly<Record<NumericKey, NumberSpec>> = {
  lambda: { kind: 'number', hash: 'lambda', label: 'λ (OPD weight)', min: 0, max: 100, integer: false, step: 0.01, help: 'weight of the gated distillation loss; 0 is GRPO' },
  beta: { kind: 'number', hash: 'beta', label: 'β (gate sharpness)', min: 0, max: 100, integer: false, step: 0.5, help: 'gate g = sigmoid(β Δ)' },
  groupSize: { kind: 'number', hash: 'group', label: 'Group size G', min: 1, max: 64, integer: true, step: 1, help: 'episodes per task' },
  tasksPerUpdate: { kind: 'number', hash: 'tasks', label: 'Tasks per update', min: 1, max: 64, integer: true, step: 1, help: 'GRPO groups per update' },
  lr: { kind: 'number', hash: 'lr', label: 'Learning rate', min: 0, max: 1, integer: false, step: 0.0001, help: 'AdamW step size' },
  clip: { kind: 'number', hash: 'clip', label: 'Clip ε', min: 0, max: 10, integer: false, step: 0.05, help: 'GRPO ratio clip' },
  klCoef: { kind: 'number', hash: 'kl', label: 'KL coefficient', min: 0, max: 10, integer: false, step: 0.005, help: 'weight of the k3 KL to the reference policy' },
  temperature: { kind: 'number', hash: 'temp', label: 'Rollout temperature', min: 0, max: 5, integer: false, step: 0.1, help: 'sampling temperature of training rollouts (0 = greedy)' },
  evalTemperature: { kind: 'number', hash: 'evaltemp', label: 'Eval temperature', min: 0, max: 5, integer: false, step: 0.1, help: 'temperature of the eval-seen and eval-unseen runs (0 = greedy)' },
  history: { kind: 'number', hash: 'history', label: 'History length H', min: 0, max: 50, integer: true, step: 1, help: 'past steps kept in the context' },
  maxSteps: { kind: 'number', hash: 'maxsteps', label: 'Max steps', min: 1, max: 100, integer: true, step: 1, help: 'steps before an episode is cut' },
  seed: { kind: 'number', hash: 'seed', label: 'Seed', min: 0, max: 0xffffffff, integer: true, step: 1, help: 'the one seed of the run (tasks, sampling)' },
  speed: { kind: 'number', hash: 'speed', label: 'Speed (updates/s, 0 = max)', min: 0, max: 100, integer: false, step: 0.5, help: 'how fast Play runs; 0 runs updates back to back' },
  evalEvery: { kind: 'number', hash: 'evalevery', label: 'Evaluate every N updates', min: 1, max: 1000, integer: true, step: 1, help: 'success on eval-seen and eval-unseen after update 1 and every N updates' },
  evalEpisodes: { kind: 'number', hash: 'evaleps', label: 'Eval games per split', min: 1, max: 134, integer: true, step: 1, help: 'games of each fixed eval set played per evaluation' },
  checkpointEvery: { kind: 'number', hash: 'ckpt', label: 'Checkpoint every N updates', min: 1, max: 1000, integer: true, step: 1, help: 'saves the run to this browser (IndexedDB)' },
};

export const CHOICE_SPECS: Readonly<Record<ChoiceKey, ChoiceSpec>> = {
  preset: { kind: 'choice', hash: 'preset', label: 'Model preset', options: PRESET_NAMES, help: 'micro: seconds per update anywhere; tiny: the CPU preset; small: a real GPU' },
  algo: { kind: 'choice', hash: 'algo', label: 'Algorithm', options: ALGORITHMS, help: 'what the run trains with' },
  decoding: { kind: 'choice', hash: 'decoding', label: 'Decoding', options: DECODINGS, help: 'constrained: only admissible commands; free: the paper’s setting' },
  backend: { kind: 'choice', hash: 'backend', label: 'Backend', options: BACKENDS, help: 'auto picks what is faster on this machine' },
};

/** Order of keys in the hash and in the controls. */
export const SETTING_KEYS: readonly (keyof Settings)[] = [
  'preset', 'algo', 'lambda', 'beta', 'groupSize', 'tasksPerUpdate', 'lr', 'clip', 'klCoef', 'temperature',
  'evalTemperature', 'history', 'maxSteps', 'decoding', 'seed', 'speed', 'evalEvery', 'evalEpisodes', 'checkpointEvery', 'backend',
];

/**
 * The page's defaults: the trainer's defaults for the preset (rl/config.ts, where the tiny presets differ from
 * the paper and why), with the micro preset cut to a size that a software adapter trains in seconds per update.
 */
const PAGE_OVERRIDES: Readonly<Record<PresetName, Partial<Settings>>> = {
  micro: { groupSize: 4, tasksPerUpdate: 2, maxSteps: 8, history: 8, lr: 1e-3 },
  tiny: {},
  small: {},
};

function trainerDefaults(preset: PresetName): Settings {
  const c = defaultConfig(preset);
  return {
    preset,
    algo: 'seed',
    lambda: c.lambda,
    beta: c.beta,
    groupSize: c.groupSize,
    tasksPerUpdate: c.tasksPerUpdate,
    lr: c.lr,
    clip: c.clip,
    klCoef: c.klCoef,
    temperature: c.temperature,
    evalTemperature: c.evalTemperature,
    history: c.history,
    maxSteps: c.maxSteps,
    decoding: c.constrained ? 'constrained' : 'free',
    seed: 1,
    speed: 0,
    checkpointEvery: 5,
    evalEvery: 5,
    evalEpisodes: preset === 'micro' ? 8 : 32,
    backend: 'auto',
  };
}

/** The playground's defaults for a preset. */
export function defaultSettings(preset: PresetName = 'micro'): Settings {
  return { ...trainerDefaults(preset), ...PAGE_OVERRIDES[preset] };
}

export const DEFAULT_SETTINGS: Readonly<Settings> = defaultSettings();

/** The settings with every hyper-parameter set to the paper's value (docs/seed-loss.md); model, seed and speed kept. */
export function withPaperValues(s: Settings): Settings {
  const p = PAPER_CONFIG;
  return {
    ...s,
    lambda: p.lambda,
    beta: p.beta,
    groupSize: p.groupSize,
    tasksPerUpdate: p.tasksPerUpdate,
    lr: p.lr,
    clip: p.clip,
    klCoef: p.klCoef,
    temperature: p.temperature,
    evalTemperature: p.evalTemperature,
    history: p.history,
    maxSteps: p.maxSteps,
    decoding: p.constrained ? 'constrained' : 'free',
  };
}

export interface SettingNotice {
  key: string;
  value: string;
  message: string;
}

export interface ParsedHash {
  settings: Settings;
  notices: SettingNotice[];
}

/** Why a value is refused for a numeric setting, or null when it is fine. */
export function numberProblem(key: NumericKey, value: number): string | null {
  const spec = NUMBER_SPECS[key];
  if (!Number.isFinite(value)) return 'not a finite number';
  if (spec.integer && !Number.isInteger(value)) return 'not a whole number';
  if (value < spec.min || value > spec.max) return `outside ${spec.min}..${spec.max}`;
  return null;
}

/** Strict decimal: "1e-3", "0.5", "12"; not "", "0x10", " 5", "Infinity". */
function parseDecimal(text: string): number {
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

const BY_HASH = new Map<string, keyof Settings>(SETTING_KEYS.map((k) => [specOf(k).hash, k]));

function specOf(key: keyof Settings): NumberSpec | ChoiceSpec {
  return key in NUMBER_SPECS ? NUMBER_SPECS[key as NumericKey] : CHOICE_SPECS[key as ChoiceKey];
}

/**
 * The settings a hash describes. The preset is read first, since the other defaults depend on it; every
 * other key falls back to that preset's default.
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
      notices.push({ key: rawKey, value: rawValue, message: 'is not valid URL encoding; ignored' });
      continue;
    }
    entries.push([key, value]);
  }

  let preset: PresetName = DEFAULT_SETTINGS.preset;
  for (const [key, value] of entries) {
    if (key !== 'preset') continue;
    if (isPresetName(value)) preset = value;
  }
  const settings = defaultSettings(preset);
  const seen = new Set<string>();
  for (const [key, value] of entries) {
    const name = BY_HASH.get(key);
    if (!name) {
      notices.push({ key, value, message: 'is not a setting; ignored' });
      continue;
    }
    if (seen.has(key)) {
      notices.push({ key, value, message: 'appears twice; the first value is kept' });
      continue;
    }
    seen.add(key);
    const spec = specOf(name);
    if (spec.kind === 'choice') {
      if (spec.options.includes(value)) (settings as unknown as Record<string, unknown>)[name] = value;
      else notices.push({ key, value, message: `must be one of ${spec.options.join(', ')}; using ${String(settings[name])}` });
      continue;
    }
    const numKey = name as NumericKey;
    const n = parseDecimal(value);
    const problem = Number.isNaN(n) ? 'not a number' : numberProblem(numKey, n);
    if (problem) notices.push({ key, value, message: `is ${problem}; using ${settings[numKey]}` });
    else settings[numKey] = n;
  }
  return { settings, notices };
}

/** The hash that reproduces these settings (every key, in SETTING_KEYS order). */
export function formatHash(s: Settings): string {
  const parts = SETTING_KEYS.map((key) => `${specOf(key).hash}=${encodeURIComponent(String(s[key]))}`);
  return `#${parts.join('&')}`;
}

/** The settings whose change needs a fresh run (model shape, algorithm, seed, backend); others apply live. */
export const RESET_KEYS: ReadonlySet<keyof Settings> = new Set(['preset', 'algo', 'seed', 'backend']);

export function needsReset(before: Settings, after: Settings): boolean {
  for (const key of RESET_KEYS) if (before[key] !== after[key]) return true;
  return false;
}

/** Settings read back from storage or a file: every known key validated as a hash value would be. */
export function settingsFrom(value: unknown): ParsedHash {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const parts = SETTING_KEYS.filter((k) => record[k] !== undefined).map((k) => `${specOf(k).hash}=${encodeURIComponent(String(record[k]))}`);
  return parseHash(parts.join('&'));
}
