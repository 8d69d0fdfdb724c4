// `seed export-onnx`: exports a checkpoint's policy as ONNX and writes it only after onnxruntime-web has matched
// the CPU forward (`command` below holds the options and the full account, the --help text).
import { trainingCardFromMetadata } from '../../onnx/card.ts';
import { OnnxPolicyError } from '../../onnx/metadata.ts';
import { OPSET_VERSION } from '../../onnx/proto.ts';
import { exportVerifiedPolicy, OnnxVerificationError } from '../../onnx/verified_export.ts';
import type { VerifyReport } from '../../onnx/verify.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { ENV_OPTION, environmentFrom, SCALE_OPTION } from '../environment_option.ts';
import { defineCommand, usageLine } from '../help.ts';
import { checkOutputsApart, readCheckpointFile, writeAtomic } from '../io.ts';
import { LIMITS } from '../limits.ts';

export const command = defineCommand({
  name: 'export-onnx',
  summary: 'export a checkpoint as ONNX, checked by onnxruntime-web against the CPU forward',
  description:
    `Exports the checkpoint's policy as ONNX (opset ${OPSET_VERSION}) with its training card, and writes the file only after onnxruntime-web (WebAssembly) has run it ` +
    "and matched the CPU forward's logits within 1e-4 on random token sequences (batch 1 and 3) and on encoded expert episodes of the checkpoint's world. " +
    'Prints a JSON summary on stdout; a failed check exits non-zero and writes nothing.',
  options: {
    ckpt: { type: 'string', value: 'FILE', required: true, description: 'the checkpoint to export' },
    out: { type: 'string', value: 'FILE', required: true, description: 'the .onnx file to write' },
    env: ENV_OPTION,
    scale: SCALE_OPTION,
    seed: {
      type: 'string',
      value: 'N',
      limit: LIMITS.exportOnnx.seed,
      default: '1',
      description: 'the seed of the random token sequences of the check',
    },
    episodes: {
      type: 'string',
      value: 'N',
      limit: LIMITS.exportOnnx.episodes,
      default: '3',
      description: 'expert episodes encoded for the check',
    },
  },
});

const usage = usageLine(command);

function logCases(report: VerifyReport): void {
  for (const c of report.cases) {
    process.stderr.write(
      `  ${c.ok ? 'ok  ' : 'FAIL'} ${c.label.padEnd(20)} max |diff| ${c.maxAbsDiff.toExponential(2)}\n`,
    );
  }
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const ckptPath = requireOption(values.ckpt, 'ckpt', usage);
  const outPath = requireOption(values.out, 'out', usage);
  const seed = numberOption(values.seed, 'seed', LIMITS.exportOnnx.seed);
  const episodes = numberOption(values.episodes, 'episodes', LIMITS.exportOnnx.episodes);

  checkOutputsApart([{ option: '--out', path: outPath }], [{ option: '--ckpt', path: ckptPath }]);
  const env = environmentFrom(values.env, values.scale);
  const tokenizer = tokenizerOf(env);
  const ckpt = await readCheckpointFile(ckptPath, tokenizer);
  const card = trainingCardFromMetadata(ckpt.metadata, ckpt.optimizer?.step ?? 0);
  process.stderr.write(`export-onnx: verifying with onnxruntime-web (wasm) against the CPU forward\n`);
  let bytes: Uint8Array;
  let report: VerifyReport;
  try {
    ({ bytes, report } = await exportVerifiedPolicy(
      { config: ckpt.config, params: ckpt.params, env, tokenizer, card },
      { seed, episodes },
    ));
  } catch (err) {
    if (err instanceof OnnxPolicyError) throw new CliError(`${ckptPath}: ${err.message}`);
    if (err instanceof OnnxVerificationError) {
      logCases(err.report);
      throw new CliError(`verification failed, ${outPath} not written: ${err.message}`);
    }
    throw err;
  }
  logCases(report);
  await writeAtomic(outPath, bytes);
  const result = {
    out: outPath,
    bytes: bytes.length,
    opset: OPSET_VERSION,
    env: env.name,
    config: ckpt.config,
    vocabularyHash: tokenizer.hash,
    card,
    verification: { ok: true, tolerance: report.tolerance, maxAbsDiff: report.maxAbsDiff, cases: report.cases.length },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}
