// `seed bench <name>`: benchmarks print a table on stdout and write a report under bench/.
// Each benchmark lives in src/cli/bench/<name>.ts (one that measures one world alone, in its world's cli/ folder:
// src/worlds/commands.ts) and exports the declaration of its options (`command`) and `run(args)`.
import { runGroup } from '../group.ts';
import type { CommandModule, GroupSpec } from '../help.ts';
import { WORLD_BENCHMARKS } from '../../worlds/commands.ts';

const members: Record<string, () => Promise<CommandModule>> = {
  ...WORLD_BENCHMARKS,
  cpu: () => import('../bench/cpu.ts'),
  kernels: () => import('../bench/kernels/main.ts'),
  learn: () => import('../bench/learn/main.ts'),
  soak: () => import('../bench/soak.ts'),
  onnx: () => import('../bench/onnx.ts'),
  page: () => import('../bench/page.ts'),
};

export const group: GroupSpec = {
  name: 'bench',
  summary: `benchmarks: ${Object.keys(members).join(', ')}`,
  description:
    'Each benchmark prints a table on stdout and writes its report under bench/ (or --out DIR), headed by the command that produced it and the commit it ran on.',
  noun: 'benchmark',
  members,
};

export function run(args: string[]): Promise<number> {
  return runGroup(group, args);
}
