// Sampling one token from a masked, temperature-scaled distribution, with the caller's uniform draw, so
// every backend picks the same token from the same logits:
// - temperature 0: the allowed token with the largest logit (the lowest id on a tie);
// - otherwise: q = masked softmax(logits / temperature) as float32 (maskedLogSoftmax, then exp), and the
//   first allowed token in id order whose running sum of q exceeds u * (sum of q).
// The returned log-prob is the masked log-softmax at temperature 1 (l_old of the SEED loss).
import { checkAnyAllowed, checkDraw, checkTemperature, isAllowed } from '../contract.ts';
import { maskedLogSoftmax } from './log_softmax.ts';

export interface SampleScratch {
  scaled: Float32Array;
  logp: Float32Array;
}

export function allocSampleScratch(vocab: number): SampleScratch {
  return { scaled: new Float32Array(vocab), logp: new Float32Array(vocab) };
}

/** masks: the allowed-token bitmask of this one row (ceil(vocab / 32) words). Returns [token, log-prob at temperature 1]. */
export function sampleToken(
  logits: Float32Array,
  masks: Uint32Array,
  vocab: number,
  temperature: number,
  u: number,
  scratch: SampleScratch,
): [number, number] {
  checkTemperature(temperature);
  checkDraw(u);
  checkAnyAllowed(masks, 0, vocab);
  const words = Math.ceil(vocab / 32);
  const { scaled, logp } = scratch;
  maskedLogSoftmax(logp, logits, masks, 1, vocab);
  let token = -1;
  if (temperature === 0) {
    let best = -Infinity;
    for (let v = 0; v < vocab; v++) {
      if (isAllowed(masks, 0, words, v) && logits[v] > best) {
        best = logits[v];
        token = v;
      }
    }
  } else {
    for (let v = 0; v < vocab; v++) scaled[v] = logits[v] / temperature;
    maskedLogSoftmax(scaled, scaled, masks, 1, vocab);
    let total = 0;
    for (let v = 0; v < vocab; v++) if (isAllowed(masks, 0, words, v)) total += Math.fround(Math.exp(scaled[v]));
    const target = u * total;
    let run = 0;
    for (let v = 0; v < vocab; v++) {
      if (!isAllowed(masks, 0, words, v)) continue;
      token = v;
      run += Math.fround(Math.exp(scaled[v]));
      if (run > target) break;
    }
  }
  if (token < 0 || !Number.isFinite(logp[token])) throw new RangeError('cannot sample: the logits are not finite');
  return [token, logp[token]];
}
