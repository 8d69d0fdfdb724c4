// What constrained decoding needs of a game state, shared by the rollout and by greedy play of an exported
// policy (onnx/greedy_episode.ts), so that both read the same context and choose among the same commands.
import type { Episode } from '../env/environment.ts';
import { freeTextSlot, type CommandSlot } from '../text/command_trie.ts';
import type { Tokenizer } from '../text/tokenizer.ts';

/** A state's listed commands, their tokens, and its free text in tokens. */
export interface DecodingState {
  admissible: string[];
  encoded: number[][];
  slot: CommandSlot | null;
}

export function decodingState(tok: Tokenizer, game: Pick<Episode, 'admissibleCommands' | 'freeText'>): DecodingState {
  const admissible = game.admissibleCommands();
  const free = game.freeText();
  return { admissible, encoded: admissible.map((c) => tok.encode(c)), slot: free && freeTextSlot(tok, free) };
}

/**
 * Room a command needs after its context, end token included: the cap of free decoding, and under constrained
 * decoding (a state given) at least the longest command the state takes (a listed one, or the free text at its
 * longest).
 */
export function commandRoom(state: DecodingState | null, maxCommandTokens: number): number {
  if (!state) return maxCommandTokens + 1;
  const freeLength = state.slot ? state.slot.open.length + state.slot.maxPieces + 1 : 0;
  let longest = Math.max(maxCommandTokens, freeLength);
  for (const ids of state.encoded) longest = Math.max(longest, ids.length);
  return longest + 1;
}
