import { describe, expect, it } from 'vitest';
import { checkOnnxModel, OnnxCheckerUnavailableError } from './onnx_checker.ts';
import { DataType, encodeModel } from './proto.ts';

describe('the ONNX checker harness', () => {
  it('rejects a graph that reads a value nothing defines, with the checker message', () => {
    const broken = encodeModel({
      ir_version: 8,
      opset_import: [{ domain: '', version: 17 }],
      graph: {
        name: 'broken',
        node: [{ op_type: 'Relu', input: ['nowhere'], output: ['y'] }],
        output: [
          { name: 'y', type: { tensor_type: { elem_type: DataType.FLOAT, shape: { dim: [{ dim_value: 2 }] } } } },
        ],
      },
    });
    expect(() => checkOnnxModel(broken)).toThrow(/ONNX checker rejected the model: .*nowhere/);
  });

  it('names the package to install when no interpreter has onnx', () => {
    expect(new OnnxCheckerUnavailableError(['python3']).message).toBe(
      'the ONNX checker needs python3 with the onnx module (tried python3): apt-get install python3-onnx',
    );
  });
});
