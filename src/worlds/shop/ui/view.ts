// The shop as the page shows it (src/ui/world_view.ts): its pages read into their parts (Page.tsx), and its
// commands' tokens glued as WebShop writes its actions.
import type { ShownToken, WorldView } from '../../../ui/world_view.ts';
import { ShopPage } from './Page.tsx';

/**
 * A command token as the shop's actions are written (WebShop's "click[b0y93032z5]"): a word piece's "##" left
 * out, and no gap before a continuation, a bracket or a hyphen, or after an opening bracket or a hyphen.
 */
function shopToken(tokens: readonly string[], k: number, first: boolean): ShownToken {
  const piece = tokens[k];
  const before = first ? null : tokens[k - 1];
  const continues = piece.startsWith('##') && piece.length > 2;
  const glued =
    before !== null &&
    (continues || piece === '[' || piece === ']' || piece === '-' || before === '[' || before === '-');
  return { text: continues ? piece.slice(2) : piece, glued };
}

export const SHOP_VIEW: WorldView = { Page: ShopPage, commandToken: shopToken };
