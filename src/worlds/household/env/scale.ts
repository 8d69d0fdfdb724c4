// Room sizes. A scale sets how many receptacles and objects a room has, how many storage receptacles
// (cabinets, drawers, shelves) training rooms and unseen rooms have (disjoint ranges: that is what makes an
// unseen room unseen), how many layouts each room kind has per pool, and the episode length. The
// validation-unseen pool draws the unseen range too, less the unseen pool's layouts.
export interface RoomScale {
  name: string;
  /** Total receptacles of a room, inclusive range (the required ones and the storage count come first). */
  receptacles: [number, number];
  /** Total objects of a scene, lamps and task objects included. */
  objects: [number, number];
  /** Instances of the room's storage type: train layouts draw from one range, unseen layouts from the other. */
  storage: { train: [number, number]; unseen: [number, number] };
  /** Most instances of a multi-instance type (countertop, stoveburner, sidetable...). */
  multiMax: number;
  /** Instances of the task's object type (two-object tasks get at least 2). */
  taskCopies: [number, number];
  /**
   * Room layouts per room kind: training rooms (also used by eval-seen), unseen rooms (eval-unseen) and the
   * unseen rooms of the validation-unseen games, which no eval set holds.
   */
  layouts: { train: number; unseen: number; 'validation-unseen': number };
  /** Default episode length for this scale. */
  maxSteps: number;
}

/** Small rooms for a 2-core CPU training run; still multi-stage (heat, cool, clean, two objects). */
export const TINY: RoomScale = {
  name: 'tiny',
  receptacles: [5, 8],
  objects: [3, 6],
  storage: { train: [1, 2], unseen: [3, 3] },
  multiMax: 1,
  taskCopies: [1, 2],
  // Enough layouts that each fixed eval set holds more than 60 distinct rooms (83 seen, 74 unseen), so that
  // intervals over layouts mean something.
  layouts: { train: 40, unseen: 30, 'validation-unseen': 20 },
  maxSteps: 20,
};

/** Rooms the size of ALFWorld's (ALFRED floor plans have 10-30 receptacles and a few dozen objects). */
export const ALFWORLD: RoomScale = {
  name: 'alfworld',
  receptacles: [12, 26],
  objects: [12, 28],
  storage: { train: [3, 8], unseen: [9, 12] },
  multiMax: 4,
  taskCopies: [1, 3],
  layouts: { train: 30, unseen: 20, 'validation-unseen': 15 },
  maxSteps: 30,
};

export const SCALES: Readonly<Record<string, RoomScale>> = { tiny: TINY, alfworld: ALFWORLD };
