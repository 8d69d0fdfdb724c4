// An independent float64 forward of the policy, written from the parameter layout alone (model/layout.ts),
// for the export tests: token + position embedding, per block pre-LayerNorm causal attention and GELU-tanh
// MLP with residuals, final LayerNorm, tied head. Plain and slow; test shapes only.
import type { ModelConfig } from '../../model/config.ts';
import { blockViewName, parameterLayout, viewOf } from '../../model/layout.ts';

export function referenceLogits(
  config: ModelConfig,
  params: Float32Array,
  ids: Int32Array,
  batch: number,
  seqLen: number,
): Float32Array {
  const layout = parameterLayout(config);
  const w = (name: string) => viewOf(params, layout.views[name]);
  const { dModel: d, vocabSize: V, nHead: H, lnEps: eps } = config;
  const out = new Float32Array(batch * seqLen * V);
  for (let b = 0; b < batch; b++) {
    const tokens = ids.subarray(b * seqLen, (b + 1) * seqLen);
    let x = embed(tokens, w('wte'), w('wpe'), d);
    for (let l = 0; l < config.nLayer; l++) {
      const p = (part: string) => w(blockViewName(l, part));
      const a = linear(
        attention(
          linear(layernorm(x, p('ln1.w'), p('ln1.b'), d, eps), p('attn.qkv.w'), p('attn.qkv.b'), d),
          seqLen,
          d,
          H,
        ),
        p('attn.proj.w'),
        p('attn.proj.b'),
        d,
      );
      x = add(x, a);
      const m = linear(
        gelu(linear(layernorm(x, p('ln2.w'), p('ln2.b'), d, eps), p('mlp.fc.w'), p('mlp.fc.b'), d)),
        p('mlp.proj.w'),
        p('mlp.proj.b'),
        config.dMlp,
      );
      x = add(x, m);
    }
    const xf = layernorm(x, w('lnf.w'), w('lnf.b'), d, eps);
    const logits = linear(xf, w('wte'), null, d);
    out.set(logits, b * seqLen * V);
  }
  return out;
}

function embed(tokens: Int32Array, wte: Float32Array, wpe: Float32Array, d: number): Float64Array {
  const x = new Float64Array(tokens.length * d);
  for (let t = 0; t < tokens.length; t++) {
    for (let i = 0; i < d; i++) x[t * d + i] = wte[tokens[t] * d + i] + wpe[t * d + i];
  }
  return x;
}

function layernorm(x: Float64Array, g: Float32Array, b: Float32Array, d: number, eps: number): Float64Array {
  const y = new Float64Array(x.length);
  for (let r = 0; r < x.length / d; r++) {
    let mean = 0;
    for (let i = 0; i < d; i++) mean += x[r * d + i];
    mean /= d;
    let v = 0;
    for (let i = 0; i < d; i++) v += (x[r * d + i] - mean) ** 2;
    const rstd = 1 / Math.sqrt(v / d + eps);
    for (let i = 0; i < d; i++) y[r * d + i] = (x[r * d + i] - mean) * rstd * g[i] + b[i];
  }
  return y;
}

/** y[r, o] = b[o] + sum_i x[r, i] w[o, i] for a row-major [out, in] weight. */
function linear(x: Float64Array, w: Float32Array, b: Float32Array | null, nIn: number): Float64Array {
  const nOut = w.length / nIn;
  const rows = x.length / nIn;
  const y = new Float64Array(rows * nOut);
  for (let r = 0; r < rows; r++) {
    for (let o = 0; o < nOut; o++) {
      let s = b ? b[o] : 0;
      for (let i = 0; i < nIn; i++) s += x[r * nIn + i] * w[o * nIn + i];
      y[r * nOut + o] = s;
    }
  }
  return y;
}

function attention(qkv: Float64Array, T: number, d: number, H: number): Float64Array {
  const hd = d / H;
  const y = new Float64Array(T * d);
  for (let h = 0; h < H; h++) {
    for (let t = 0; t < T; t++) {
      const scores: number[] = [];
      for (let u = 0; u <= t; u++) {
        let s = 0;
        for (let i = 0; i < hd; i++) s += qkv[t * 3 * d + h * hd + i] * qkv[u * 3 * d + d + h * hd + i];
        scores.push(s / Math.sqrt(hd));
      }
      const max = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - max));
      const z = e.reduce((a, c) => a + c, 0);
      for (let u = 0; u <= t; u++) {
        for (let i = 0; i < hd; i++) y[t * d + h * hd + i] += (e[u] / z) * qkv[u * 3 * d + 2 * d + h * hd + i];
      }
    }
  }
  return y;
}

function gelu(x: Float64Array): Float64Array {
  const c = Math.sqrt(2 / Math.PI);
  return x.map((v) => 0.5 * v * (1 + Math.tanh(c * (v + 0.044715 * v ** 3))));
}

function add(a: Float64Array, b: Float64Array): Float64Array {
  return a.map((v, i) => v + b[i]);
}
