// The tables of docs/verl.md, written from the mapping (mapping.ts) and the worlds' benchmarks (their facts'
// `engine`): every setting with the tiny preset's value, the paper's and its key there or why it has none;
// every algorithm; every world. mapping_table.test.ts fails when the document's tables are not these.
import { PRESET_NAMES } from '../../model/config.ts';
import { factsOf } from '../../worlds/facts.ts';
import { ENVIRONMENT_NAMES } from '../../worlds/names.ts';
import { defaultConfig, TRAIN_KEYS, TRAIN_SETTINGS } from '../config.ts';
import { ALGORITHM_ROWS, isCarried, numberText as num, SETTING_ROWS } from './mapping.ts';

const code = (text: string) => `\`${text}\``;
const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;

/** Every setting: the presets' values, the paper's, the key(s) there and how, or why it has none. */
export function settingsTable(): string {
  const presets = PRESET_NAMES.filter((p) => p !== 'small');
  const lines = [
    row(['setting', `${presets.join(' / ')}`, 'paper', 'in the SEED trainer', 'how, or why none']),
    row(['---', '---:', '---:', '---', '---']),
  ];
  for (const key of TRAIN_KEYS) {
    const r = SETTING_ROWS[key];
    const ours = [...new Set(presets.map((p) => num(defaultConfig(p)[key])))].join(' / ');
    const there = isCarried(r) ? r.keys.map(code).join(', ') : 'no counterpart';
    lines.push(row([code(key), ours, num(TRAIN_SETTINGS[key].paper), there, isCarried(r) ? r.how : r.none]));
  }
  return lines.join('\n');
}

/** Every algorithm: what it runs as there, or why it has no counterpart. */
export function algorithmsTable(): string {
  return [
    row(['algorithm', 'in the SEED trainer', 'what the script sets, or why none']),
    row(['---', '---', '---']),
    ...ALGORITHM_ROWS.map((r) => row([r.names, r.engine === null ? 'no counterpart' : code(r.engine), r.how])),
  ].join('\n');
}

/** Every world: its benchmark there, the launcher the script follows, the paper's steps and the SFT's length. */
export function worldsTable(): string {
  return [
    row(['world', 'benchmark', '`env.env_name`', 'SEED launcher', "paper's steps / history", 'SFT: max length, lr']),
    row(['---', '---', '---', '---', '---:', '---:']),
    ...ENVIRONMENT_NAMES.map((env) => {
      const e = factsOf(env).engine;
      return e
        ? row([
            env,
            e.name,
            code(e.envName),
            code(e.launcher),
            `${e.paper.maxSteps} / ${e.paper.history}`,
            `${e.sft.maxLength}, ${num(e.sft.lr)}`,
          ])
        : row([env, 'no counterpart', '', '', '', '']);
    }),
  ].join('\n');
}
