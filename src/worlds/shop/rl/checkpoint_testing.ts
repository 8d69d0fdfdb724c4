// The shipped tiny shop warm start, for the tests that need a trained shop policy (a test that needs any policy
// plays seeded weights instead). A change of the shop's words (its pages, its catalogue's texts) changes the
// vocabulary and is followed by a rebuild of the shipped file; until that lands, public/ holds a file of the
// older vocabulary, which every reader refuses, and the tests of a trained policy wait for the rebuilt file
// (shippedShopWarmStart is null) rather than fail on the old one.
import { readFileSync } from 'node:fs';
import { SHOP } from '../env/environment.ts';
import { type Checkpoint, readCheckpoint } from '../../../model/checkpoint.ts';
import { warmStartPath } from '../../../model/config.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';

const SHIPPED_SHOP_FILE = warmStartPath('tiny', 'shop');

/** The shipped shop warm start when it is of the shop's vocabulary, else null. */
export function shippedShopWarmStart(): Checkpoint | null {
  const ck = readCheckpoint(new Uint8Array(readFileSync(SHIPPED_SHOP_FILE)));
  return ck.vocabHash === tokenizerOf(SHOP).hash ? ck : null;
}

/** Why a test of the trained shop policy waits, for its name. */
export const AWAITS_REBUILD = `(waits for a ${SHIPPED_SHOP_FILE} of the shop's vocabulary while it holds an older one)`;
