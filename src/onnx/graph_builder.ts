// A small builder for ONNX graphs: nodes in topological order (the order they are added), readable value
// names, constants as Constant nodes (so that the initializers are exactly the model's weights, which the
// caller adds).
import {
  AttributeType,
  DataType,
  floatRawData,
  int64RawData,
  type AttributeProto,
  type NodeProto,
  type TensorProto,
} from './proto.ts';

export const attr = {
  int: (name: string, i: number): AttributeProto => ({ name, type: AttributeType.INT, i }),
  float: (name: string, f: number): AttributeProto => ({ name, type: AttributeType.FLOAT, f }),
  ints: (name: string, ints: number[]): AttributeProto => ({ name, type: AttributeType.INTS, ints }),
  tensor: (name: string, t: TensorProto): AttributeProto => ({ name, type: AttributeType.TENSOR, t }),
};

export class GraphBuilder {
  readonly nodes: NodeProto[] = [];
  private readonly used = new Set<string>();

  /** Reserves a value name: `hint`, or `hint_2`, `hint_3`, ... when it is taken. */
  name(hint: string): string {
    let name = hint;
    for (let k = 2; this.used.has(name); k++) name = `${hint}_${k}`;
    this.used.add(name);
    return name;
  }

  /** Adds a node with one output, named after `hint`; returns the output's name. */
  op(opType: string, inputs: string[], hint: string, attributes: AttributeProto[] = []): string {
    return this.opMulti(opType, inputs, [hint], attributes)[0];
  }

  opMulti(opType: string, inputs: string[], hints: string[], attributes: AttributeProto[] = []): string[] {
    const output = hints.map((h) => this.name(h));
    const node: NodeProto = { name: this.name(`${output[0]}/${opType}`), op_type: opType, input: inputs, output };
    if (attributes.length > 0) node.attribute = attributes;
    this.nodes.push(node);
    return output;
  }

  /** A float32 constant; dims [] makes a scalar. */
  constFloat(hint: string, values: number[], dims: number[] = []): string {
    return this.constant(hint, { dims, data_type: DataType.FLOAT, raw_data: floatRawData(values) });
  }

  /** An int64 constant; dims defaults to a vector of the values. */
  constInt64(hint: string, values: number[], dims: number[] = [values.length]): string {
    return this.constant(hint, { dims, data_type: DataType.INT64, raw_data: int64RawData(values) });
  }

  private constant(hint: string, tensor: TensorProto): string {
    return this.op('Constant', [], hint, [attr.tensor('value', tensor)]);
  }
}
