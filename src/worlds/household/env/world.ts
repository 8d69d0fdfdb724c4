// The household's state and rules: where the agent stands, what it holds, where every object is, which
// receptacles are open, which objects are hot, cold or clean, which lamps are on. `apply` runs one command
// with ALFWorld's feedback; a command that is not possible now changes nothing and answers "Nothing happens.".
// A command is valid exactly when it is in `admissible()` (the tests hold the two to that).
import { OBJECT_KINDS, compareListing, typeOf, type ObjectKind } from './knowledge.ts';
import { checkScene, requiredState, type Scene, type Task } from './scene.ts';
import { NOTHING_HAPPENS, introText, say } from './text.ts';

export interface Outcome {
  observation: string;
  valid: boolean;
  /** Objects whose presence the observation revealed (the listed content of a receptacle). */
  seen: string[];
}

const NONE = -1;

function nothing(): Outcome {
  return { observation: NOTHING_HAPPENS, valid: false, seen: [] };
}

export class World {
  readonly scene: Scene;
  readonly task: Task;
  readonly recNames: string[];
  readonly recTypes: string[];
  readonly openable: boolean[];
  readonly objNames: string[];
  readonly objTypes: string[];
  readonly objKinds: ObjectKind[];
  /** Receptacle index of each object; NONE while the agent holds it. */
  readonly loc: Int32Array;
  readonly isOpen: Uint8Array;
  readonly hot: Uint8Array;
  readonly cold: Uint8Array;
  readonly clean: Uint8Array;
  readonly on: Uint8Array;
  /** Receptacle index of the agent; NONE in the middle of the room (the start). */
  at = NONE;
  /** Object index in the agent's hands; NONE when empty. */
  held = NONE;
  private readonly recIndex: Map<string, number>;
  private readonly objIndex: Map<string, number>;

  constructor(scene: Scene) {
    checkScene(scene);
    this.scene = scene;
    this.task = scene.task;
    const recs = [...scene.receptacles].sort((a, b) => compareListing(a.name, b.name));
    const objs = [...scene.objects].sort((a, b) => compareListing(a.name, b.name));
    this.recNames = recs.map((r) => r.name);
    this.recTypes = this.recNames.map(typeOf);
    this.openable = recs.map((r) => r.openable);
    this.objNames = objs.map((o) => o.name);
    this.objTypes = this.objNames.map(typeOf);
    this.objKinds = this.objTypes.map((t) => OBJECT_KINDS[t]);
    this.recIndex = new Map(this.recNames.map((n, i) => [n, i]));
    this.objIndex = new Map(this.objNames.map((n, i) => [n, i]));
    this.loc = Int32Array.from(objs, (o) => this.recIndex.get(o.in)!);
    this.isOpen = Uint8Array.from(recs, (r) => (r.open ? 1 : 0));
    this.hot = new Uint8Array(objs.length);
    this.cold = new Uint8Array(objs.length);
    this.clean = new Uint8Array(objs.length);
    this.on = new Uint8Array(objs.length);
  }

  clone(): World {
    const copy = Object.create(World.prototype) as World;
    Object.assign(copy, this);
    const w = copy as { -readonly [K in keyof World]: World[K] };
    w.loc = this.loc.slice();
    w.isOpen = this.isOpen.slice();
    w.hot = this.hot.slice();
    w.cold = this.cold.slice();
    w.clean = this.clean.slice();
    w.on = this.on.slice();
    return copy;
  }

  /** The opening observation: banner, the receptacles of the room in listing order, the task. */
  intro(): string {
    return introText(this.recNames, this.task.goal);
  }

  receptacleIndex(name: string): number {
    return this.recIndex.get(name) ?? NONE;
  }

  objectIndex(name: string): number {
    return this.objIndex.get(name) ?? NONE;
  }

  location(): string | null {
    return this.at === NONE ? null : this.recNames[this.at];
  }

  holding(): string | null {
    return this.held === NONE ? null : this.objNames[this.held];
  }

  closed(r: number): boolean {
    return this.openable[r] && this.isOpen[r] === 0;
  }

  /** Objects in receptacle r, in listing order (whether or not the agent can see them). */
  contents(r: number): number[] {
    const out: number[] = [];
    for (let o = 0; o < this.loc.length; o++) if (this.loc[o] === r) out.push(o);
    return out;
  }

  /** Objects the agent can see: the content of the receptacle it stands at, unless closed. */
  visible(): number[] {
    return this.at === NONE || this.closed(this.at) ? [] : this.contents(this.at);
  }

  goalReached(): boolean {
    const task = this.task;
    if (task.type === 'look_at_obj_in_light') {
      if (this.held === NONE || this.objTypes[this.held] !== task.object || this.at === NONE) return false;
      for (const o of this.visible()) if (this.objTypes[o] === task.lamp && this.on[o]) return true;
      return false;
    }
    const state = requiredState(task.type);
    const needed = task.type === 'pick_two_obj_and_place' ? 2 : 1;
    // Called after every step: no allocation; the first qualifying object's receptacle is compared with
    // the rest for the two-object count.
    for (let o = 0; o < this.loc.length; o++) {
      if (!this.placedForTask(o, state)) continue;
      if (needed === 1) return true;
      for (let p = o + 1; p < this.loc.length; p++)
        if (this.loc[p] === this.loc[o] && this.placedForTask(p, state)) return true;
    }
    return false;
  }

  private placedForTask(o: number, state: 'heat' | 'cool' | 'clean' | null): boolean {
    const r = this.loc[o];
    const task = this.task;
    if (
      r === NONE ||
      task.type === 'look_at_obj_in_light' ||
      this.objTypes[o] !== task.object ||
      this.recTypes[r] !== task.target
    )
      return false;
    if (state === 'heat') return this.hot[o] === 1;
    if (state === 'cool') return this.cold[o] === 1;
    if (state === 'clean') return this.clean[o] === 1;
    return true;
  }

  /** The valid commands of this state, in a fixed order (see the list in `admissible`'s body). */
  admissible(): string[] {
    // go to (listing order, not the current spot), open/close/examine the current receptacle, take, put,
    // heat/cool/clean, use, examine objects in view or in hand, inventory, look.
    const out: string[] = [];
    const at = this.at;
    for (let r = 0; r < this.recNames.length; r++) if (r !== at) out.push(`go to ${this.recNames[r]}`);
    const held = this.held;
    const heldName = held === NONE ? '' : this.objNames[held];
    let view: number[] = [];
    if (at !== NONE) {
      const rec = this.recNames[at];
      if (this.openable[at]) out.push(this.isOpen[at] ? `close ${rec}` : `open ${rec}`);
      out.push(`examine ${rec}`);
      view = this.visible();
      if (held === NONE) {
        for (const o of view) if (this.objKinds[o].pickupable) out.push(`take ${this.objNames[o]} from ${rec}`);
      } else {
        if (!this.closed(at)) out.push(`put ${heldName} in/on ${rec}`);
        const verb = this.applianceVerb(held, at);
        if (verb) out.push(`${verb} ${heldName} with ${rec}`);
      }
      for (const o of view) if (this.objKinds[o].toggleable) out.push(`use ${this.objNames[o]}`);
    }
    for (const o of view) out.push(`examine ${this.objNames[o]}`);
    if (held !== NONE) out.push(`examine ${heldName}`);
    out.push('inventory', 'look');
    return out;
  }

  apply(command: string): Outcome {
    const cmd = normalise(command);
    if (cmd === 'look') return this.look();
    if (cmd === 'inventory') return this.inventory();
    if (cmd.startsWith('go to ')) return this.goTo(this.recIndex.get(cmd.slice(6)));
    if (cmd.startsWith('open ')) return this.open(this.recIndex.get(cmd.slice(5)));
    if (cmd.startsWith('close ')) return this.close(this.recIndex.get(cmd.slice(6)));
    if (cmd.startsWith('use ')) return this.use(this.objIndex.get(cmd.slice(4)));
    if (cmd.startsWith('examine ')) return this.examine(cmd.slice(8));
    if (cmd.startsWith('take ')) {
      const [o, r] = split(cmd.slice(5), ' from ');
      return this.take(this.objIndex.get(o), this.recIndex.get(r));
    }
    if (cmd.startsWith('put ')) {
      const [o, r] = split(cmd.slice(4), ' in/on ');
      return this.put(this.objIndex.get(o), this.recIndex.get(r));
    }
    for (const verb of ['heat', 'cool', 'clean'] as const) {
      if (cmd.startsWith(`${verb} `)) {
        const [o, r] = split(cmd.slice(verb.length + 1), ' with ');
        return this.change(verb, this.objIndex.get(o), this.recIndex.get(r));
      }
    }
    return nothing();
  }

  private view(r: number): Outcome {
    const name = this.recNames[r];
    if (this.closed(r)) return { observation: say.closed(name), valid: true, seen: [] };
    const items = this.contents(r).map((o) => this.objNames[o]);
    const observation = this.openable[r] ? say.openView(name, items) : say.onTop(name, items);
    return { observation, valid: true, seen: items };
  }

  private goTo(r: number | undefined): Outcome {
    if (r === undefined || r === this.at) return nothing();
    this.at = r;
    const seen = this.view(r);
    return { observation: `${say.arrive(this.recNames[r])} ${seen.observation}`, valid: true, seen: seen.seen };
  }

  private open(r: number | undefined): Outcome {
    if (r === undefined || r !== this.at || !this.openable[r] || this.isOpen[r]) return nothing();
    this.isOpen[r] = 1;
    const seen = this.view(r);
    return { observation: `${say.open(this.recNames[r])} ${seen.observation}`, valid: true, seen: seen.seen };
  }

  private close(r: number | undefined): Outcome {
    if (r === undefined || r !== this.at || !this.openable[r] || !this.isOpen[r]) return nothing();
    this.isOpen[r] = 0;
    return { observation: say.close(this.recNames[r]), valid: true, seen: [] };
  }

  private take(o: number | undefined, r: number | undefined): Outcome {
    if (o === undefined || r === undefined || this.held !== NONE || r !== this.at || this.loc[o] !== r)
      return nothing();
    if (this.closed(r) || !this.objKinds[o].pickupable) return nothing();
    this.loc[o] = NONE;
    this.held = o;
    return { observation: say.take(this.objNames[o], this.recNames[r]), valid: true, seen: [] };
  }

  private put(o: number | undefined, r: number | undefined): Outcome {
    if (o === undefined || r === undefined || this.held !== o || r !== this.at || this.closed(r)) return nothing();
    this.loc[o] = r;
    this.held = NONE;
    return { observation: say.put(this.objNames[o], this.recNames[r]), valid: true, seen: [] };
  }

  /** The verb that receptacle r applies to held object o ("heat" at a microwave...), or null. */
  private applianceVerb(o: number, r: number): 'heat' | 'cool' | 'clean' | null {
    const type = this.recTypes[r];
    const kind = this.objKinds[o];
    if (type === 'microwave') return kind.heatable ? 'heat' : null;
    if (type === 'fridge') return kind.coolable ? 'cool' : null;
    if (type === 'sinkbasin') return kind.cleanable ? 'clean' : null;
    return null;
  }

  // Heating and cooling work whether the microwave or fridge is open or not, as in ALFWorld; heating
  // undoes cooling and the other way round.
  private change(verb: 'heat' | 'cool' | 'clean', o: number | undefined, r: number | undefined): Outcome {
    if (o === undefined || r === undefined || this.held !== o || r !== this.at) return nothing();
    if (this.applianceVerb(o, r) !== verb) return nothing();
    const obj = this.objNames[o];
    const rec = this.recNames[r];
    if (verb === 'heat') {
      this.hot[o] = 1;
      this.cold[o] = 0;
      return { observation: say.heat(obj, rec), valid: true, seen: [] };
    }
    if (verb === 'cool') {
      this.cold[o] = 1;
      this.hot[o] = 0;
      return { observation: say.cool(obj, rec), valid: true, seen: [] };
    }
    this.clean[o] = 1;
    return { observation: say.clean(obj, rec), valid: true, seen: [] };
  }

  private use(o: number | undefined): Outcome {
    if (o === undefined || !this.objKinds[o].toggleable || this.at === NONE) return nothing();
    if (this.loc[o] !== this.at || this.closed(this.at)) return nothing();
    this.on[o] ^= 1;
    const name = this.objNames[o];
    return { observation: this.on[o] ? say.turnOn(name) : say.turnOff(name), valid: true, seen: [] };
  }

  private examine(name: string): Outcome {
    const r = this.recIndex.get(name);
    if (r !== undefined) return r === this.at ? this.view(r) : nothing();
    const o = this.objIndex.get(name);
    if (o === undefined) return nothing();
    const inView = o === this.held || (this.at !== NONE && this.loc[o] === this.at && !this.closed(this.at));
    if (!inView) return nothing();
    const observation = this.hot[o]
      ? say.hotThing(name)
      : this.cold[o]
        ? say.coldThing(name)
        : this.clean[o]
          ? say.cleanThing(name)
          : say.plainThing(name);
    return { observation, valid: true, seen: [] };
  }

  private look(): Outcome {
    const observation = this.at === NONE ? say.middle() : say.facing(this.recNames[this.at]);
    return { observation, valid: true, seen: [] };
  }

  private inventory(): Outcome {
    const observation = this.held === NONE ? say.carryingNothing() : say.carrying(this.objNames[this.held]);
    return { observation, valid: true, seen: [] };
  }
}

/** Commands are matched after trimming, lower-casing and collapsing runs of spaces. */
export function normalise(command: string): string {
  const text = command.trim().toLowerCase();
  return /\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, ' ') : text;
}

function split(text: string, sep: string): [string, string] {
  const i = text.indexOf(sep);
  return i < 0 ? ['', ''] : [text.slice(0, i), text.slice(i + sep.length)];
}
