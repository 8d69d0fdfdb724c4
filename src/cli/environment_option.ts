// The --env option of the commands that play a world: its declaration, and the world and scene files it names.
import { ENVIRONMENT_NAMES, type Environment, type EnvironmentName } from '../env/environment.ts';
import { environmentOf } from '../worlds/environments.ts';
import { VARIANTS } from '../worlds/facts.ts';
import { SceneError } from '../worlds/household/env/scene.ts';
import { ShopSceneError } from '../worlds/shop/env/scene.ts';
import { CliError } from './cli_error.ts';
import type { OptionSpec } from './help.ts';
import { envRemedy, readTextInput } from './io.ts';
import { MAX_INPUT_BYTES } from './limits.ts';

export const ENV_OPTION = {
  type: 'string' as const,
  choices: ENVIRONMENT_NAMES,
  default: 'household',
  description: 'the world: ALFWorld-style household rooms, or a WebShop-style shop',
} satisfies OptionSpec;

export const SCALE_OPTION = {
  type: 'string' as const,
  value: 'tiny|alfworld|webshop',
  default: 'tiny',
  description:
    "the world's scale: the household's small rooms or rooms of ALFWorld's size (alfworld); the shop's small pages or WebShop's (webshop)",
} satisfies OptionSpec;

/** The world --env names (parseOptions has checked it is one of the choices), at the scale --scale names. */
export function environmentFrom(value: string | undefined, scale = 'tiny'): Environment {
  const name = (value ?? 'household') as EnvironmentName;
  if (!VARIANTS[name].includes(scale))
    throw new CliError(
      `--scale must be one of ${VARIANTS[name].join(', ')} in the ${name}, got ${JSON.stringify(scale)}`,
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
    if (!(err instanceof SceneError || err instanceof ShopSceneError)) throw err;
    const other = worldOfScene(text, env.name);
    if (other !== null)
      throw new CliError(`${path} is a ${other} scene, not a ${env.name} one: ${envRemedy(other)}`, 2);
    // The household is the default world: a refusal names the other one, which --env chose.
    throw new CliError(`${path}: ${err.message}${env.name === 'household' ? '' : ` (read as a ${env.name} scene)`}`);
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
