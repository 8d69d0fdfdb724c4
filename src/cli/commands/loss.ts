// `seed loss`: evaluates the SEED loss of hand-made per-token inputs and prints the loss terms and, per token,
// Delta, the gate and coef = d total / d l_student as JSON on stdout (`command` below; the file format is
// documented in src/backend/loss_json.ts).
import type { LossOutput } from '../../backend/backend.ts';
import type { GpuRuntime } from '../../backend/webgpu/runtime.ts';
import { seedLoss } from '../../backend/cpu/seed_loss.ts';
import { LossJsonError, lossOutputToJson, parseLossProblem, type LossProblem } from '../../backend/loss_json.ts';
import { quote } from '../../common/json.ts';
import { noPositionals, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { defineCommand, usageLine } from '../help.ts';
import { readTextInput } from '../io.ts';
import { MAX_INPUT_BYTES } from '../limits.ts';

export const command = defineCommand({
  name: 'loss',
  summary: 'evaluate the SEED loss and its per-token gradient on a JSON file of token inputs',
  description:
    'Reads per-token log-probabilities (l_student, l_skill, l_old, l_ref), advantages and masks with the hyper-parameters, and prints L_GRPO, L_OPD, KL and the total, ' +
    'and per token Delta, the gate and coef = d total / d l_student, as JSON on stdout. The page exports its per-token table in this format.',
  options: {
    in: {
      type: 'string',
      value: 'FILE',
      required: true,
      description: 'the JSON input (the format of src/backend/loss_json.ts)',
    },
    backend: {
      type: 'string',
      value: 'cpu|webgpu',
      default: 'cpu',
      description: "the backend whose SEED loss is evaluated: the CPU reference or the WebGPU kernels (Node's WebGPU)",
    },
  },
});

const usage = usageLine(command);

async function evaluate(backend: string, p: LossProblem): Promise<LossOutput> {
  if (backend === 'cpu') return seedLoss(p.lStudent, p.inputs, p.hyper);
  if (backend === 'webgpu') return evaluateOnWebGpu(p);
  throw new CliError(`--backend must be cpu or webgpu, got ${quote(backend)}`, 2);
}

/** The same numbers from the WebGPU SEED kernels (probability shift and fused coefficient), on Node's WebGPU. */
async function evaluateOnWebGpu(p: LossProblem): Promise<LossOutput> {
  const { createNodeRuntime } = await import('../../backend/webgpu/node_gpu.ts');
  const { WebGpuUnavailableError } = await import('../../backend/webgpu/errors.ts');
  const { runSeedLoss } = await import('../../backend/webgpu/seed_loss.ts');
  let gpu: GpuRuntime;
  try {
    gpu = await createNodeRuntime();
  } catch (err) {
    if (err instanceof WebGpuUnavailableError) throw new CliError(err.message);
    throw err;
  }
  try {
    return await runSeedLoss(gpu, p.lStudent, p.inputs, p.hyper);
  } finally {
    gpu.dispose();
  }
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const path = requireOption(values.in, 'in', usage);
  const text = await readTextInput(path, MAX_INPUT_BYTES.loss);
  let problem: LossProblem;
  try {
    problem = parseLossProblem(text);
  } catch (err) {
    if (err instanceof LossJsonError) throw new CliError(`${path}: ${err.message}`);
    throw err;
  }
  const out = await evaluate(values.backend, problem);
  for (const term of ['L_GRPO', 'L_OPD', 'KL', 'total'] as const) {
    if (!Number.isFinite(out[term])) {
      throw new CliError(`${term} is not finite (${out[term]}): the log-probabilities are too far apart`);
    }
  }
  process.stdout.write(`${JSON.stringify(lossOutputToJson(out), null, 2)}\n`);
  return 0;
}
