// Every command declares its options once, as data (CommandSpec): parseOptions (args.ts) parses its arguments
// with that declaration, and the usage line of its errors and its --help text are written from it, so an
// option is added in one place. A group of commands (bench, ckpt) is a GroupSpec: `<group> --help` lists its
// members, `<group> <member> --help` shows the member's options.
import type { ParseArgsOptionDescriptor } from 'node:util';
import { describeLimit, type Limit } from './limits.ts';

export interface OptionSpec extends ParseArgsOptionDescriptor {
  /** What the option does, in a sentence or two: the help text. */
  description: string;
  /** The placeholder of a string option's value in the usage line and the help: N, FILE, cpu|webgpu. */
  value?: string;
  /** The range of the number the option takes (limits.ts); with `list`, of each number of its list. */
  limit?: Limit;
  /** The values the option takes (parseOptions refuses any other); with `list`, those of each item of its list. */
  choices?: readonly string[];
  /** The value is a comma-separated list of numbers, each within `limit`, or of `choices`. */
  list?: boolean;
  /** With `list` and `choices`: the word that stands for an empty list (none). */
  empty?: string;
  /** The default in words, when it is not one fixed value (it depends on other options or on the machine). */
  defaultText?: string;
  /** The command refuses to run without it. */
  required?: boolean;
}

export interface CommandSpec<T extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  /** The words after `npm run seed --`: 'train', 'bench learn', 'ckpt init'. */
  name: string;
  /** One line: the command's entry in its group's list. */
  summary: string;
  /** What the command reads, does, writes and prints; a blank line starts a new paragraph. */
  description: string;
  /** The positional arguments in the usage line (ckpt inspect's FILE); none when absent. */
  positionals?: string;
  options: T;
  /** Tables after the options: the settings `--set` takes, for one. */
  sections?: readonly HelpSection[];
}

export interface HelpSection {
  heading: string;
  /** A line of text before the entries. */
  intro?: string;
  entries: readonly (readonly [string, string])[];
}

/** The declaration as written, its option names and types kept for the parsed values' types. */
export function defineCommand<T extends Record<string, OptionSpec>>(spec: CommandSpec<T>): CommandSpec<T> {
  return spec;
}

/** A command module: a command with declared options, or a group of them. */
export type CommandModule = { run(args: string[]): Promise<number> } & (
  | { command: CommandSpec }
  | { group: GroupSpec }
);

export interface GroupSpec {
  name: string;
  summary: string;
  description: string;
  /** What a member is called in messages: "benchmark", "ckpt command". */
  noun: string;
  members: Record<string, () => Promise<CommandModule>>;
}

/** The request to print a help text (on stdout, exit 0) instead of running: thrown by parseOptions and groups. */
export class HelpRequest extends Error {
  constructor(readonly text: string) {
    super('help requested');
    this.name = 'HelpRequest';
  }
}

/** Whether the arguments ask for help: --help or -h anywhere before a `--` that ends the options. */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export function summaryOf(m: CommandModule): string {
  return 'command' in m ? m.command.summary : m.group.summary;
}

/** How a choice option's value is written: micro|tiny|small, or micro,tiny,small|none for a list. */
function choicesPlaceholder(o: OptionSpec): string | undefined {
  if (!o.choices) return undefined;
  return o.list ? `${o.choices.join(',')}${o.empty ? `|${o.empty}` : ''}` : o.choices.join('|');
}

function placeholder(o: OptionSpec): string {
  return o.type === 'boolean' ? '' : ` ${o.value ?? choicesPlaceholder(o) ?? 'VALUE'}`;
}

/** `npm run seed -- <name> ...` with every option; `ranges` adds the ranges of the numeric ones. */
export function usageLine(spec: CommandSpec, ranges = true): string {
  const parts = [`npm run seed -- ${spec.name}`];
  if (spec.positionals) parts.push(spec.positionals);
  for (const [name, o] of Object.entries(spec.options)) {
    const text = `--${name}${placeholder(o)}${o.multiple ? ' ...' : ''}`;
    parts.push(o.required ? text : `[${text}]`);
  }
  const limited = Object.entries(spec.options).filter(([, o]) => o.limit);
  const rangeText = limited.map(([name, o]) => `--${name} ${describeLimit(o.limit!)}`).join(', ');
  return parts.join(' ') + (ranges && limited.length ? ` (ranges: ${rangeText})` : '');
}

/** The option's kind of value and range: "a whole number in 0..1000000", "a flag". */
export function optionType(o: OptionSpec): string {
  if (o.type === 'boolean') return 'a flag';
  if (o.choices)
    return o.list
      ? `a comma-separated list of ${o.choices.join(', ')}${o.empty ? `, or ${o.empty}` : ''}`
      : `one of ${o.choices.join(', ')}`;
  if (!o.limit) return o.multiple ? 'repeatable' : '';
  const kind = o.limit.integer ? 'whole number' : 'number';
  return o.list
    ? `comma-separated ${kind}s, each in ${describeLimit(o.limit)}`
    : `a ${kind} in ${describeLimit(o.limit)}`;
}

/** The option's default as the help states it; '' for a required option. */
export function optionDefault(o: OptionSpec): string {
  if (o.required) return '';
  if (o.defaultText !== undefined) return o.defaultText;
  if (o.type === 'boolean') return o.default === true ? 'on' : 'off';
  if (Array.isArray(o.default)) return o.default.length ? o.default.join(' ') : 'none';
  return o.default === undefined ? '' : String(o.default);
}

const WIDTH = 100;
const COLUMN = 28;

/** `text` in lines of at most `width` characters (a longer word stands alone), each after `indent`. */
function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(indent + line);
  return lines;
}

function paragraphs(text: string, indent = ''): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => wrap(p, WIDTH, indent).join('\n'))
    .join('\n\n');
}

/** A two-column entry: the term, then its text wrapped beside it (under it when the term is too long). */
function entry(term: string, text: string): string {
  const pad = ' '.repeat(COLUMN);
  const body = wrap(text, WIDTH, pad);
  const head = `  ${term}`;
  if (head.length < COLUMN - 1 && body.length)
    return [head.padEnd(COLUMN) + body[0].slice(COLUMN), ...body.slice(1)].join('\n');
  return [head, ...body].join('\n');
}

/** The help of a command: usage, summary, description and every option with its type, range and default. */
export function helpText(spec: CommandSpec): string {
  const options = Object.entries(spec.options).map(([name, o]) => {
    const facts = [optionType(o), o.required ? 'required' : `default: ${optionDefault(o)}`].filter(Boolean);
    return entry(`--${name}${placeholder(o)}`, `${o.description} (${facts.join('; ')})`);
  });
  options.push(entry('-h, --help', 'print this help and exit'));
  const sections = (spec.sections ?? []).flatMap((s) => [
    '',
    `${s.heading}:`,
    ...(s.intro ? [paragraphs(s.intro, '  ')] : []),
    ...s.entries.map(([term, text]) => entry(term, text)),
  ]);
  return [
    usageBlock(usageLine(spec, false)),
    '',
    paragraphs(sentence(spec.summary)),
    '',
    paragraphs(spec.description),
    '',
    'options:',
    ...options,
    ...sections,
    '',
  ].join('\n');
}

/** A summary as a sentence: capitalised, with a full stop. */
export function sentence(summary: string): string {
  return `${summary.charAt(0).toUpperCase()}${summary.slice(1)}.`;
}

/** "usage: ..." wrapped, its continuation lines indented under the command. */
function usageBlock(usage: string): string {
  return wrap(`usage: ${usage}`, WIDTH, '    ').join('\n').slice(4);
}

/** The help of a group of commands, or of the whole command line: usage, description and the members. */
export function listHelp(
  usage: string,
  description: string,
  heading: string,
  entries: readonly (readonly [string, string])[],
  footer: string,
): string {
  return [
    usageBlock(usage),
    '',
    paragraphs(description),
    '',
    `${heading}:`,
    ...entries.map(([name, text]) => entry(name, text)),
    '',
    paragraphs(footer),
    '',
  ].join('\n');
}
