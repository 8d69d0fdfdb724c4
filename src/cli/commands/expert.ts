// `seed expert`: prints the expert's shortest solution of a scene, one command per line (`command` below).
import { noPositionals, parseOptions, requireOption } from '../args.ts';
import { ENV_OPTION, environmentFrom, readWorldScene, SCALE_OPTION } from '../environment_option.ts';
import { defineCommand, usageLine } from '../help.ts';

export const command = defineCommand({
  name: 'expert',
  summary: "print the expert's commands that solve a scene JSON file, one per line",
  description:
    "Prints the expert's shortest solution of the scene on stdout, one command per line (the input of `seed play --actions`), and its number of steps on stderr.",
  options: {
    scene: {
      type: 'string',
      value: 'FILE',
      required: true,
      description: 'the scene JSON file to solve (from `seed scenes`)',
    },
    env: ENV_OPTION,
    scale: SCALE_OPTION,
  },
});

const usage = usageLine(command);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const env = environmentFrom(values.env, values.scale);
  const scene = await readWorldScene(env, requireOption(values.scene, 'scene', usage));
  const plan = env.episode(scene).expertPlan();
  process.stdout.write(plan.map((c) => `${c}\n`).join(''));
  process.stderr.write(`${plan.length} steps\n`);
  return 0;
}
