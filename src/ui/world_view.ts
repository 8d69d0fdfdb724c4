// What the page shows of a world its own way (src/worlds/views.ts lists each world's): a page of its games read
// into its parts, and its commands' tokens as the world writes its commands. A world whose pages are plain text
// and whose commands are words shows them as they are (TEXT_VIEW).
import type { ReactNode } from 'react';

/** A command's token as shown: its text, and whether it follows the one before with no gap. */
export interface ShownToken {
  text: string;
  glued: boolean;
}

export interface WorldView {
  /** A page of the game (an observation) as the episode view and the ONNX player show it; null: its text as it is. */
  readonly Page: ((props: { text: string }) => ReactNode) | null;
  /** Token `k` of a command's tokens (`first`: the command's first) as the world writes it; null: each token spaced. */
  readonly commandToken: ((tokens: readonly string[], k: number, first: boolean) => ShownToken) | null;
}

/** The view of a world of plain text pages and word commands: the household's. */
export const TEXT_VIEW: WorldView = { Page: null, commandToken: null };
