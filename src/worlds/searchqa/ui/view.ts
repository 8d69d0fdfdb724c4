// The search-QA world as the page shows it (src/ui/world_view.ts): its pages read into their parts (Page.tsx:
// the numbered passages one a line, the answer's grade), and its commands' tokens glued as Search-R1 writes its
// actions ("search[Marno Nular born]", "answer[1847]").
import type { ShownToken, WorldView } from '../../../ui/world_view.ts';
import { QaPage } from './Page.tsx';

/** A command token as the world's actions are written: no gap before a bracket, nor after an opening one. */
function qaToken(tokens: readonly string[], k: number, first: boolean): ShownToken {
  const piece = tokens[k];
  const before = first ? null : tokens[k - 1];
  return { text: piece, glued: before !== null && (piece === '[' || piece === ']' || before === '[') };
}

export const SEARCHQA_VIEW: WorldView = { Page: QaPage, commandToken: qaToken };
