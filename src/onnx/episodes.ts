// Real token sequences for verifying an export: expert episodes of generated eval-seen games, laid out as
// the policy reads an episode (observation, then command and observation per step, with the markers of
// text/markers.ts) and encoded by the playground tokenizer.
import { Game } from '../env/game.ts';
import { generateScene } from '../env/generate.ts';
import { ACT, END, OBS } from '../text/markers.ts';
import type { Tokenizer } from '../text/tokenizer.ts';

export function expertEpisodeSequences(tokenizer: Tokenizer, count: number, maxLength: number): Int32Array[] {
  const obs = tokenizer.id(OBS);
  const act = tokenizer.id(ACT);
  const end = tokenizer.id(END);
  const sequences: Int32Array[] = [];
  for (let i = 0; i < count; i++) {
    const game = new Game(generateScene('seen', i));
    const ids = [obs, ...tokenizer.encode(game.observation)];
    for (const command of game.expertPlan()) {
      const { observation, done } = game.step(command);
      ids.push(act, ...tokenizer.encode(command), end, obs, ...tokenizer.encode(observation));
      if (done) break;
    }
    sequences.push(Int32Array.from(ids.slice(0, maxLength)));
  }
  return sequences;
}
