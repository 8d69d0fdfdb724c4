// The registry of what the page shows of each world its own way (src/ui/world_view.ts): a line per world.
import { TEXT_VIEW, type WorldView } from '../ui/world_view.ts';
import { entryOf, type EnvironmentName } from './names.ts';
import { SEARCHQA_VIEW } from './searchqa/ui/view.ts';
import { SHOP_VIEW } from './shop/ui/view.ts';

const VIEWS: Readonly<Record<EnvironmentName, WorldView>> = {
  household: TEXT_VIEW,
  shop: SHOP_VIEW,
  searchqa: SEARCHQA_VIEW,
};

/** The view of the world `name`; a name that is no world's is refused with the list of the worlds. */
export function viewOf(name: string): WorldView {
  return entryOf(VIEWS, name);
}
