// `seed bench <name>`: benchmarks print a table on stdout and write a report under bench/.
// Each benchmark lives in src/lab (one that measures one world alone, in its world's lab/ folder: src/worlds/lab.ts)
// and exports the declaration of its options (`command`) and `run(args)`.
import { runGroup } from '../cli/group.ts';
import type { CommandModule, GroupSpec } from '../cli/help.ts';
import { WORLD_BENCHMARKS } from '../worlds/lab.ts';

const members: Record<string, () => Promise<CommandModule>> = {
  ...WORLD_BENCHMARKS,
  cpu: () => import('./speed/cpu.ts'),
  kernels: () => import('./speed/kernels/main.ts'),
  learn: () => import('./learn/main.ts'),
  soak: () => import('./speed/soak.ts'),
  onnx: () => import('./speed/onnx.ts'),
  page: () => import('./page/page.ts'),
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
