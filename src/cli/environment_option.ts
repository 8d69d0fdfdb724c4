// The --env option of the commands that play a world: its declaration, and the world and scene files it names.
import type { Environment } from '../env/environment.ts';
import { environmentOf } from '../worlds/environments.ts';
import { allVariants, factsOf, theWorld } from '../worlds/facts.ts';
import { DEFAULT_WORLD, ENVIRONMENT_NAMES, namedWorld, type EnvironmentName } from '../worlds/names.ts';
import { CliError } from './cli_error.ts';
import type { OptionSpec } from './help.ts';
import { envRemedy, readTextInput } from './io.ts';
import { MAX_INPUT_BYTES } from './limits.ts';

/** "a, or b", "a, b, or c": a choice among the worlds in words. */
function orList(items: readonly string[]): string {
  return items.length <= 2 ? items.join(', or ') : `${items.slice(0, -1).join(', ')}, or ${items.at(-1)}`;
}

export const ENV_OPTION = {
  type: 'string' as const,
  choices: ENVIRONMENT_NAMES,
  default: DEFAULT_WORLD,
  description: `the world: ${orList(ENVIRONMENT_NAMES.map((name) => factsOf(name).words.summary))}`,
} satisfies OptionSpec;

export const SCALE_OPTION = {
  type: 'string' as const,
  value: allVariants().join('|'),
  default: 'tiny',
  description: `the world's scale: ${ENVIRONMENT_NAMES.map((name) => factsOf(name).words.scales).join('; ')}`,
} satisfies OptionSpec;

/**
 * The sizes of every world's fixed eval sets, in words, each world by the name --env takes (a value, not a noun, so
 * that it reads alike for every name): "household 140 seen and 134 unseen, shop ...".
 */
export function evalSetsInWords(): string {
  return ENVIRONMENT_NAMES.map((name) => {
    const { seen, unseen } = factsOf(name).evalCounts;
    return `${name} ${seen} seen and ${unseen} unseen`;
  }).join(', ');
}

/** Items in a sentence: "a", "a and b", "a, b and c". */
function andList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The worlds with a score (WorldFacts.scored), or those without, in a sentence's words: "the shop and the search-QA world". */
export function worldsInWords(scored: boolean): string {
  return andList(ENVIRONMENT_NAMES.filter((name) => factsOf(name).scored === scored).map((name) => theWorld(name)));
}

/** Every world's step budget (WorldFacts.maxSteps) in words: "30 in the household, 15 in the shop and 6 in ...". */
export function stepBudgets(): string {
  return andList(ENVIRONMENT_NAMES.map((name) => `${factsOf(name).maxSteps} in ${theWorld(name)}`));
}

/** What each world's score is (WorldWords.score), a sentence each: "The shop's score: WebShop's, 0 to 1: ...". */
export function scoresInWords(): string {
  return ENVIRONMENT_NAMES.filter((name) => factsOf(name).scored)
    .map((name) => `${theWorld(name, true)}'s score: ${factsOf(name).words.score}.`)
    .join(' ');
}

/** The world --env names (parseOptions has checked it is one of the choices), at the scale --scale names. */
export function environmentFrom(value: string | undefined, scale = 'tiny'): Environment {
  const name = (value ?? DEFAULT_WORLD) as EnvironmentName;
  const { variants } = factsOf(name);
  if (!variants.includes(scale))
    throw new CliError(
      `--scale must be one of ${variants.join(', ')} with --env ${name}, got ${JSON.stringify(scale)}`,
      2,
    );
  return environmentOf(name, scale);
}

/**
 * A scene JSON file of a world, checked; every refusal names the file. A scene of another world says which
 * world it is of and the --env that reads it, rather than what the first field the world expects lacks.
 */
export async function readWorldScene<S>(env: Environment<S>, path: string): Promise<S> {
  const text = await readTextInput(path, MAX_INPUT_BYTES.scene);
  try {
    return env.sceneFromJson(text);
  } catch (err) {
    // A world's sceneFromJson throws only at what the text lacks (environment.ts): the refusal of a bad file.
    const other = worldOfScene(text, env.name);
    if (other !== null)
      throw new CliError(`${path} is a ${other} scene, not a ${env.name} one: ${envRemedy(other)}`, 2);
    // A refusal names the world --env chose, unless it is the default one.
    const chosen = namedWorld(env.name) === undefined ? '' : ` (read as a ${env.name} scene)`;
    throw new CliError(`${path}: ${err instanceof Error ? err.message : String(err)}${chosen}`);
  }
}

/** The world other than `not` whose scene parser takes `text`, or null. */
function worldOfScene(text: string, not: EnvironmentName): EnvironmentName | null {
  for (const name of ENVIRONMENT_NAMES) {
    if (name === not) continue;
    try {
      environmentOf(name).sceneFromJson(text);
      return name;
    } catch {
      // Not a scene of this world either.
    }
  }
  return null;
}
