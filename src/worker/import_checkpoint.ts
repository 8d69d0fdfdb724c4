// The checkpoint a person imports into the page's run. One written for the other world's vocabulary is refused
// saying which world it is of and to switch World, in the words the command line uses for its --env
// (text/tokenizer.ts otherWorldCheckpoint), rather than by its vocabulary hash alone.
import type { EnvironmentName } from '../worlds/names.ts';
import { CheckpointError, readCheckpoint, type Checkpoint } from '../model/checkpoint.ts';
import { otherWorldCheckpoint, worldOfVocabulary } from '../text/tokenizer.ts';

/** The checkpoint of `bytes` for a run of world `here`, whose vocabulary hashes to `vocabHash`. */
export function readImportedCheckpoint(bytes: Uint8Array, vocabHash: string, here: EnvironmentName): Checkpoint {
  try {
    return readCheckpoint(bytes, { vocabHash });
  } catch (err) {
    if (!(err instanceof CheckpointError && err.kind === 'vocabulary')) throw err;
    const of = worldOfVocabulary(readCheckpoint(bytes).vocabHash);
    if (of === null || of === here) throw err;
    throw new CheckpointError('vocabulary', otherWorldCheckpoint(of, here, `switch World to the ${of} to import it`));
  }
}
