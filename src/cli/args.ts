// Option parsing shared by the CLI commands: node's util.parseArgs, with its errors turned into CliErrors, and
// strict numbers: decimal notation only (no hexadecimal, no blanks, no empty string), none that reads as 0 or
// as Infinity when it was written as neither (1e-400, 1e400), whole numbers for counts written in plain digits
// (2, not +2, 02, 2.0 or 2e0), and every value inside its range from limits.ts. The options are those a
// command declares (help.ts CommandSpec); --help or -h among them asks for its help instead (a HelpRequest).
import { parseArgs } from 'node:util';
import { quote } from '../common/json.ts';
import { describeRange, parseDecimal, underflows } from '../common/setting_range.ts';
import { PRESET_NAMES, type PresetName } from '../model/config.ts';
import {
  applySettings,
  defaultConfig,
  isConfigKey,
  TRAIN_KEYS,
  TRAIN_SETTINGS,
  type TrainConfig,
} from '../rl/config.ts';
import { CliError } from './cli_error.ts';
import {
  HelpRequest,
  helpText,
  usageLine,
  wantsHelp,
  type CommandSpec,
  type HelpSection,
  type OptionSpec,
} from './help.ts';
import { describeLimit, type Limit } from './limits.ts';

/** A user error that also shows the command's usage, on the same line. */
export function usageError(message: string, usage: string): CliError {
  return new CliError(`${message}; usage: ${usage}`, 2);
}

/**
 * The values and positionals of `args` by the command's declared options; its help when they ask for it. The
 * value of an option with `choices` is checked here, so every command refuses another with the same words.
 */
export function parseOptions<T extends Record<string, OptionSpec>>(args: string[], command: CommandSpec<T>) {
  if (wantsHelp(args)) throw new HelpRequest(helpText(command));
  const parsed = parseStrict(args, command);
  for (const [name, o] of Object.entries(command.options)) {
    const value: unknown = (parsed.values as Record<string, unknown>)[name];
    if (!o.choices || value === undefined) continue;
    for (const text of Array.isArray(value) ? value : [value]) {
      if (o.list) choiceList(String(text), name, o.choices, o.empty);
      else choiceOption(String(text), name, o.choices);
    }
  }
  return parsed;
}

/** Node's parseArgs, strict: an unknown option or a missing value is a usage error with the command's usage line. */
function parseStrict<T extends Record<string, OptionSpec>>(args: string[], command: CommandSpec<T>) {
  try {
    return parseArgs({ args, options: command.options, allowPositionals: true, strict: true });
  } catch (err) {
    // Node writes some of these messages as sentences on lines of their own; a usage error is one line.
    throw usageError((err as Error).message.replace(/([.?])\n/g, '$1 '), usageLine(command));
  }
}

/** The value of option --name when it is one of `choices` (typed by them), or a CliError naming the choices. */
export function choiceOption<T extends string>(text: string, name: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw new CliError(`--${name} must be one of ${choices.join(', ')}, got ${quote(text)}`, 2);
}

/** The items of list option --name (micro,tiny), each one of `choices`; `empty` (none) is the empty list. */
export function choiceList<T extends string>(text: string, name: string, choices: readonly T[], empty?: string): T[] {
  if (empty !== undefined && text === empty) return [];
  const items = text.split(',').map((item) => item.trim());
  if (items.every((item) => (choices as readonly string[]).includes(item))) return items as T[];
  const or = empty === undefined ? '' : `, or ${empty}`;
  throw new CliError(`--${name} must be a comma-separated list of ${choices.join(', ')}${or}, got ${quote(text)}`, 2);
}

/** The --preset option, declared once for every command that takes one; its value is read with `presetOf`. */
export function presetOption(spec: { description: string; required?: true; default?: PresetName }) {
  return { type: 'string', choices: PRESET_NAMES, ...spec } as const;
}

/** The value of a --preset option (checked by parseOptions), typed; a required one that is absent is a usage error. */
export function presetOf(value: string | undefined, usage: string): PresetName {
  return choiceOption(requireOption(value, 'preset', usage), 'preset', PRESET_NAMES);
}

/** Refuses positional arguments, for a command that takes options only. */
export function noPositionals(positionals: readonly string[], usage: string): void {
  if (positionals.length > 0) throw usageError(`unexpected argument ${quote(positionals[0])}`, usage);
}

export function requireOption(value: string | undefined, name: string, usage: string): string {
  if (value === undefined || value === '') throw usageError(`missing --${name}`, usage);
  return value;
}

/**
 * A number written in decimal (an exponent is allowed: 1e-3), or a CliError naming `what`. A text that names
 * a number too small or too large for a float64 reads as 0 or Infinity, which is not the number written: it is
 * refused, as the settings refuse it (common/setting_range.ts).
 */
function decimalOption(text: string, what: string): number {
  const n = parseDecimal(text);
  if (Number.isNaN(n)) throw new CliError(`${what} must be a decimal number, got ${quote(text)}`, 2);
  if (!Number.isFinite(n))
    throw new CliError(`${what} is too large to be a number, got ${quote(text)} (it reads as Infinity)`, 2);
  if (underflows(text, n))
    throw new CliError(`${what} is too small to be told from 0, got ${quote(text)} (it reads as 0; write 0 for 0)`, 2);
  return n;
}

/**
 * `text` as a number within `limit`, or a CliError naming `what` and the range. A count is written in plain
 * digits, as the help and the messages write it: another spelling of the same number (+2, 02, 2.0, 2e0) is
 * refused with the expected form, so that a typo or a script's formatting is not read as something else.
 */
export function limitedNumber(text: string, what: string, limit: Limit): number {
  const n = decimalOption(text, what);
  if (limit.integer && !Number.isInteger(n))
    throw new CliError(`${what} must be a whole number, got ${quote(text)}`, 2);
  const below = limit.aboveMin ? n <= limit.min : n < limit.min;
  const above = limit.belowMax ? n >= limit.max : n > limit.max;
  if (below || above) throw new CliError(`${what} must be in ${describeLimit(limit)}, got ${quote(text)}`, 2);
  if (limit.integer && text !== String(n))
    throw new CliError(`${what} must be written in plain digits, as ${n}, got ${quote(text)}`, 2);
  return n;
}

/** The number of option --name within `limit`; `fallback` when the option is absent (required without one). */
export function numberOption(value: string | undefined, name: string, limit: Limit, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new CliError(`missing --${name}`, 2);
    return fallback;
  }
  return limitedNumber(value, `--${name}`, limit);
}

/** A comma-separated list of numbers within `limit` (--batches 1,4). */
export function numberList(text: string, name: string, limit: Limit): number[] {
  return text.split(',').map((s) => limitedNumber(s, `--${name}`, limit));
}

/**
 * Applies `--set key=value` settings to `config`, each value written in decimal (or true/false), each in its
 * range from the settings table (src/rl/config.ts); any refusal is one line naming the key.
 */
export function applySetOptions(config: TrainConfig, settings: readonly string[]): TrainConfig {
  for (const setting of settings) {
    const value = setting.slice(setting.indexOf('=') + 1).trim();
    if (setting.includes('=') && value !== 'true' && value !== 'false' && Number.isNaN(parseDecimal(value))) {
      throw new CliError(`--set: ${quote(setting)} needs a decimal number or true/false after "="`, 2);
    }
  }
  let applied: TrainConfig;
  try {
    applied = applySettings(config, settings);
  } catch (err) {
    throw new CliError(`--set: ${(err as Error).message}`, 2);
  }
  // A whole-number setting in its range is written as the counts of the options are (limitedNumber).
  for (const setting of settings) {
    const key = setting.slice(0, setting.indexOf('=')).trim();
    const value = setting.slice(setting.indexOf('=') + 1).trim();
    const n = parseDecimal(value);
    if (isConfigKey(key) && TRAIN_SETTINGS[key].kind === 'integer' && Number.isInteger(n) && value !== String(n))
      throw new CliError(`--set: setting ${key} must be written in plain digits, as ${n}, got ${quote(value)}`, 2);
  }
  return applied;
}

/** The help's table of the settings `--set key=value` takes: each with its meaning, range and preset defaults. */
export function settingsSection(): HelpSection {
  const configs = PRESET_NAMES.map((p) => defaultConfig(p));
  return {
    heading: 'settings (--set key=value; true and false stand for 1 and 0)',
    entries: TRAIN_KEYS.map((key) => {
      const byValue = new Map<number, PresetName[]>();
      configs.forEach((c, i) => {
        byValue.set(c[key], [...(byValue.get(c[key]) ?? []), PRESET_NAMES[i]]);
      });
      const defaults =
        byValue.size === 1
          ? String(configs[0][key])
          : [...byValue].map(([v, names]) => `${v} (${names.join(', ')})`).join(', ');
      const s = TRAIN_SETTINGS[key];
      return [key, `${s.doc} (${describeRange(s)}; default: ${defaults}; paper: ${s.paper})`] as const;
    }),
  };
}
