// Node only: runs the reference ONNX checker (python3-onnx) with full shape inference on a model, and
// reports what the onnx package read: the inferred output shapes, the opset and the metadata keys. The first interpreter that can import onnx is used: $SEED_PYTHON,
// then `python3` on PATH, then the system's /usr/bin/python3 (where Debian installs python3-onnx).
import { spawnSync } from 'node:child_process';

const CHECK_SCRIPT = `
import json, sys
import onnx
from onnx import shape_inference
model = onnx.load_from_string(sys.stdin.buffer.read())
onnx.checker.check_model(model, full_check=True)
inferred = shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
def dims(value):
    return [d.dim_param if d.HasField("dim_param") else d.dim_value for d in value.type.tensor_type.shape.dim]
print(json.dumps({
    "onnx_version": onnx.__version__,
    "outputs": {o.name: dims(o) for o in inferred.graph.output},
    "value_infos": len(inferred.graph.value_info),
    "metadata_keys": [p.key for p in model.metadata_props],
    "opset": max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")),
}))
`;

interface CheckerResult {
  python: string;
  onnxVersion: string;
  /** Inferred shape of each graph output: dim_param names or fixed sizes. */
  outputs: Record<string, (string | number)[]>;
  /** Intermediate values whose type shape inference worked out. */
  valueInfos: number;
  /** metadata_props keys, in file order, as the onnx package reads them. */
  metadataKeys: string[];
  opset: number;
}

export class OnnxCheckerUnavailableError extends Error {
  constructor(tried: string[]) {
    super(
      `the ONNX checker needs python3 with the onnx module (tried ${tried.join(', ')}): apt-get install python3-onnx`,
    );
    this.name = 'OnnxCheckerUnavailableError';
  }
}

let cachedPython: string | undefined;

function findPythonWithOnnx(): string {
  if (cachedPython) return cachedPython;
  const candidates = [process.env.SEED_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => !!c);
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', 'import onnx'], { encoding: 'utf8' });
    if (probe.status === 0) {
      cachedPython = python;
      return python;
    }
  }
  throw new OnnxCheckerUnavailableError(candidates);
}

/** Throws with the checker's own message when the model is invalid. */
export function checkOnnxModel(bytes: Uint8Array): CheckerResult {
  const python = findPythonWithOnnx();
  const run = spawnSync(python, ['-c', CHECK_SCRIPT], { input: bytes, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (run.error) throw new Error(`could not run ${python}: ${run.error.message}`);
  if (run.status !== 0) {
    const lines = run.stderr.trim().split('\n');
    throw new Error(`ONNX checker rejected the model: ${lines.slice(-3).join(' | ')}`);
  }
  const out = JSON.parse(run.stdout) as {
    onnx_version: string;
    outputs: CheckerResult['outputs'];
    value_infos: number;
    metadata_keys: string[];
    opset: number;
  };
  return {
    python,
    onnxVersion: out.onnx_version,
    outputs: out.outputs,
    valueInfos: out.value_infos,
    metadataKeys: out.metadata_keys,
    opset: out.opset,
  };
}
