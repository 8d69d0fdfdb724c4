// The registry of the lab's commands that serve one world alone, each in its world's lab/ folder, which the lab
// lists with its own (src/lab/commands.ts, src/lab/bench.ts): the shop's diagnostic probes, the household's
// environment benchmark. A world without such a command has no line here.
import type { CommandModule } from '../cli/help.ts';

/** `npm run seed -- <name>`: a world's own research commands. */
export const WORLD_COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  probe: () => import('./shop/lab/probe.ts'),
};

/** `npm run seed -- bench <name>`: a world's own benchmarks. */
export const WORLD_BENCHMARKS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  env: () => import('./household/lab/bench_env.ts'),
};
