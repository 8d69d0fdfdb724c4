// Files edited after export, each a valid ONNX model whose metadata and weights still match their checksum:
// only the comparison with the graph rebuilt from the metadata tells them from a genuine export.
import { describe, expect, it } from 'vitest';
import { exportPolicyOnnx } from './export.ts';
import { attr } from './graph_builder.ts';
import { readPolicyOnnx } from './load.ts';
import { OnnxPolicyError } from './metadata.ts';
import { decodeModel, encodeModel, floatRawData, type GraphProto, type ModelProto, type NodeProto } from './proto.ts';
import { testPolicy } from './testing/fixtures.ts';

const policy = testPolicy('micro', 3);
const exported = exportPolicyOnnx(policy);

/** A fresh decoded copy of the export, edited by `edit` and encoded again. */
function edited(edit: (graph: GraphProto & { node: NodeProto[] }, model: ModelProto) => void): Uint8Array {
  const model = decodeModel(exported);
  edit(model.graph as GraphProto & { node: NodeProto[] }, model);
  return encodeModel(model);
}

function indexOf(graph: GraphProto & { node: NodeProto[] }, name: string): number {
  const k = graph.node.findIndex((n) => n.name === name);
  if (k < 0) throw new Error(`no node ${name}`);
  return k;
}

function refusal(bytes: Uint8Array): string {
  try {
    readPolicyOnnx(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(OnnxPolicyError);
    return (err as Error).message;
  }
  throw new Error('the file was accepted');
}

const head = decodeModel(exported).graph!.node!.findIndex((n) => n.name === 'logits/MatMul');

describe('the loader compares the graph with the one the metadata asks for', () => {
  it('a genuine export loads, and so does one whose node names and doc strings were changed', () => {
    expect(readPolicyOnnx(exported).params).toEqual(policy.params);
    const renamed = edited((g) => {
      g.node.forEach((n, i) => {
        n.name = `n${i}`;
        n.doc_string = 'edited by hand';
      });
      g.name = 'renamed';
    });
    expect(readPolicyOnnx(renamed).card).toEqual(policy.card);
  });

  it('negated logits: a Neg node after the output head', () => {
    const negated = edited((g) => {
      g.node[head].output = ['logits_raw'];
      g.node.push({ name: 'negate', op_type: 'Neg', input: ['logits_raw'], output: ['logits'] });
    });
    expect(refusal(negated)).toBe(
      `graph node ${head} (MatMul logits/MatMul): output 0 is "logits_raw", expected "logits"`,
    );
  });

  it('a LayerNorm epsilon of 10', () => {
    let k = -1;
    const bytes = edited((g) => {
      k = indexOf(g, 'lnf.out/LayerNormalization');
      g.node[k].attribute = g.node[k].attribute!.map((a) => (a.name === 'epsilon' ? attr.float('epsilon', 10) : a));
    });
    expect(refusal(bytes)).toBe(
      `graph node ${k} (LayerNormalization lnf.out/LayerNormalization): attribute epsilon is 10, expected 0.00001`,
    );
  });

  it('swapped MatMul inputs', () => {
    const swapped = edited((g) => {
      g.node[head].input = [...g.node[head].input].reverse();
    });
    expect(refusal(swapped)).toBe(`graph node ${head} (MatMul logits/MatMul): input 0 is "wte.T", expected "lnf.out"`);
  });

  it('a node dropped, in the middle or at the end', () => {
    let k = -1;
    const middle = edited((g) => {
      k = indexOf(g, 'h1.mlp.gelu.tanh/Tanh');
      g.node.splice(k, 1);
    });
    expect(refusal(middle)).toBe(`graph node ${k} (Tanh h1.mlp.gelu.tanh/Tanh): op type is "Constant", expected Tanh`);
    const last = edited((g) => {
      g.node.pop();
    });
    expect(refusal(last)).toBe(
      `graph node ${head} (MatMul logits/MatMul) is missing: the file has ${head} nodes, the model config needs ${head + 1}`,
    );
  });

  it('a constant changed: the GELU cube coefficient', () => {
    let k = -1;
    const bytes = edited((g) => {
      k = indexOf(g, 'h0.mlp.gelu.c/Constant');
      g.node[k].attribute![0].t!.raw_data = floatRawData([0.5]);
    });
    expect(refusal(bytes)).toBe(
      `graph node ${k} (Constant h0.mlp.gelu.c/Constant): attribute value holds [0.5], expected [0.044715]`,
    );
  });

  it('an extra output, on a node or on the graph', () => {
    const onNode = edited((g) => {
      g.node[head].output = ['logits', 'more'];
    });
    expect(refusal(onNode)).toBe(`graph node ${head} (MatMul logits/MatMul): it has 2 outputs, expected 1`);
    const onGraph = edited((g) => {
      g.output!.push({ ...g.output![0], name: 'lnf.out' });
    });
    expect(refusal(onGraph)).toBe('the graph has 2 outputs ("logits", "lnf.out"), a policy has 1: logits');
    const retyped = edited((g) => {
      g.output![0].type!.tensor_type!.elem_type = 11;
    });
    expect(refusal(retyped)).toBe('graph output 0 (logits): type.tensor_type.elem_type is 11, expected 1');
  });

  it('an extra node at the end, an attribute added or dropped, another domain', () => {
    expect(refusal(edited((g) => g.node.push({ op_type: 'Identity', input: ['logits'], output: ['copy'] })))).toBe(
      `graph node ${head + 1} ("Identity") is one node too many: the model config needs ${head + 1}`,
    );
    expect(refusal(edited((g) => g.node[head].attribute!.push(attr.int('axis', 0))))).toBe(
      `graph node ${head} (MatMul logits/MatMul): attribute "axis" is not one the exporter writes`,
    );
    const k = decodeModel(exported).graph!.node!.findIndex((n) => n.op_type === 'Softmax');
    expect(refusal(edited((g) => (g.node[k].attribute = [])))).toBe(
      `graph node ${k} (Softmax h0.attn.probs/Softmax): attribute axis is missing`,
    );
    expect(refusal(edited((g) => (g.node[k].attribute![0].i = 1)))).toBe(
      `graph node ${k} (Softmax h0.attn.probs/Softmax): attribute axis is 1, expected -1`,
    );
    expect(refusal(edited((g) => (g.node[k].domain = 'com.example')))).toBe(
      `graph node ${k} (Softmax h0.attn.probs/Softmax): domain is "com.example", expected the default domain`,
    );
  });

  it('content outside the nodes: value_info, local functions, another opset', () => {
    expect(refusal(edited((g) => (g.value_info = [{ name: 'lnf.out' }])))).toBe(
      'the graph holds value_info, which a policy file has none of',
    );
    expect(refusal(edited((_g, m) => Object.assign(m, { functions: [{ name: 'Softmax', domain: '' }] })))).toBe(
      'the model holds functions, which a policy file has none of',
    );
    expect(refusal(edited((_g, m) => (m.opset_import = [{ domain: '', version: 16 }])))).toBe(
      'the model imports opset 16; a policy graph is opset 17',
    );
  });
});
