// The registry of the commands that serve one world alone, which the command line lists with its own (cli.ts,
// commands/bench.ts): the shop's diagnostic probes, the household's environment benchmark. A world without such a
// command has no line here.
import type { CommandModule } from '../cli/help.ts';

/** `npm run seed -- <name>`: a world's own commands. */
export const WORLD_COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  probe: () => import('./shop/cli/probe.ts'),
};

/** `npm run seed -- bench <name>`: a world's own benchmarks. */
export const WORLD_BENCHMARKS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  env: () => import('./household/cli/bench_env.ts'),
};
