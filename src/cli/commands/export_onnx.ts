// `seed export-onnx --ckpt FILE --out FILE`: exports a checkpoint's policy as ONNX (opset 17) and writes it
// only after onnxruntime-web (WebAssembly backend) has run the file and matched the CPU forward's logits
// within 1e-4 on random token sequences (batch 1 and 3) and on encoded expert episodes. Prints a JSON
// summary on stdout; a failed check exits non-zero and writes nothing.
import { trainingCardFromMetadata } from '../../onnx/card.ts';
import { OnnxPolicyError } from '../../onnx/metadata.ts';
import { OPSET_VERSION } from '../../onnx/proto.ts';
import { exportVerifiedPolicy, OnnxVerificationError } from '../../onnx/verified_export.ts';
import type { VerifyReport } from '../../onnx/verify.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { readCheckpointFile, writeAtomic } from '../io.ts';
import { LIMITS, withLimits } from '../limits.ts';

export const summary = 'export a checkpoint as ONNX, checked by onnxruntime-web against the CPU forward';

const usage = withLimits('npm run seed -- export-onnx --ckpt FILE --out FILE [--seed N] [--episodes N]', LIMITS.exportOnnx);

function logCases(report: VerifyReport): void {
  for (const c of report.cases) {
    process.stderr.write(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.label.padEnd(20)} max |diff| ${c.maxAbsDiff.toExponential(2)}\n`);
  }
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { ckpt: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' }, episodes: { type: 'string' } },
    usage,
  );
  noPositionals(positionals, usage);
  const ckptPath = requireOption(values.ckpt, 'ckpt', usage);
  const outPath = requireOption(values.out, 'out', usage);
  const seed = numberOption(values.seed, 'seed', LIMITS.exportOnnx.seed, 1);
  const episodes = numberOption(values.episodes, 'episodes', LIMITS.exportOnnx.episodes, 3);

  const tokenizer = defaultTokenizer();
  const ckpt = await readCheckpointFile(ckptPath, tokenizer);
  const card = trainingCardFromMetadata(ckpt.metadata, ckpt.optimizer?.step ?? 0);
  process.stderr.write(`export-onnx: verifying with onnxruntime-web (wasm) against the CPU forward\n`);
  let bytes: Uint8Array;
  let report: VerifyReport;
  try {
    ({ bytes, report } = await exportVerifiedPolicy({ config: ckpt.config, params: ckpt.params, tokenizer, card }, { seed, episodes }));
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
    config: ckpt.config,
    vocabularyHash: tokenizer.hash,
    card,
    verification: { ok: true, tolerance: report.tolerance, maxAbsDiff: report.maxAbsDiff, cases: report.cases.length },
  };
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return 0;
}
