// The saved runs of one tab's engine: the id its run saves under, the list of saved runs it offers, and the
// record a resume reads. A run holds its id (a lock shared by the browser's tabs) while it trains, so that a
// second tab resuming the same record goes on as a copy under a new id instead of writing over the first
// tab's run; a tab that closes, or a run whose device was lost, lets its id go.
import { messageOf } from '../common/errors.ts';
import type { RefusedRun, SavedRunInfo, SavedRuns } from './protocol.ts';
import { savedRunFrom, type SavedRun, type VocabularyOf } from './saved_run.ts';

/** The records of saved runs, stored as they are; every one is checked when it is read (saved_run.ts). */
export interface RunStore {
  /** Every record, under its key. */
  entries(): Promise<{ key: string; value: unknown }[]>;
  get(key: string): Promise<unknown>;
  /** Stores the run under its id, then drops the records past MAX_SAVED_RUNS (runsToDrop), never this one. */
  save(run: SavedRun): Promise<void>;
  remove(key: string): Promise<void>;
}

export interface RunIds {
  store: RunStore;
  /** A new run id, unique across tabs and sessions. */
  newRunId(): string;
  /** Holds a run id for this tab until the returned release is called; null when another tab holds it. */
  lockRun(id: string): Promise<(() => void) | null>;
}

export class RunSaves {
  /** The id the current run saves under. */
  id = '';
  /** The update of the current run's last save under its id; null before the first. */
  lastSaved: number | null = null;
  /** Set once the run's device was lost: it trains no more, and its record is offered like any other. */
  lost = false;
  private release: (() => void) | null = null;

  constructor(
    private readonly host: RunIds,
    private readonly vocabOf: VocabularyOf,
  ) {}

  /** The saved run of that id; throws a one-line reason when there is none or its record is refused. */
  async load(id: string): Promise<SavedRun> {
    const value = await this.host.store.get(id);
    if (value === undefined)
      throw new Error('that saved run is no longer in this browser (discarded, or dropped for newer ones)');
    const check = savedRunFrom(value, id, this.vocabOf);
    if (!check.ok) throw new Error(`the saved run cannot be resumed: ${check.problem}`);
    return check.run;
  }

  /**
   * Takes the id of a starting run: the saved run's own when no other tab holds it, a new one otherwise (and
   * for a fresh run). Returns true when the run goes on as a copy under a new id.
   */
  async begin(saved: SavedRun | null): Promise<boolean> {
    this.letGo();
    this.lost = false;
    const release = saved ? await this.host.lockRun(saved.id) : null;
    if (saved && release) {
      this.id = saved.id;
      this.release = release;
      this.lastSaved = saved.updates;
      return false;
    }
    this.id = this.host.newRunId();
    this.release = await this.host.lockRun(this.id);
    this.lastSaved = null;
    return saved !== null;
  }

  async save(run: Omit<SavedRun, 'id'>): Promise<void> {
    await this.host.store.save({ ...run, id: this.id });
    this.lastSaved = run.updates;
  }

  /** The run's device was lost: its id is let go, so that any tab (this one too) may resume its record. */
  stopLost(): void {
    this.lost = true;
    this.letGo();
  }

  /** Every saved run that can be resumed, newest first, and the records refused; the training run left out. */
  async list(): Promise<SavedRuns> {
    let entries: { key: string; value: unknown }[];
    try {
      entries = await this.host.store.entries();
    } catch (err) {
      return { runs: [], refused: [{ id: '', problem: `the saved runs could not be read: ${messageOf(err)}` }] };
    }
    const runs: SavedRunInfo[] = [];
    const refused: RefusedRun[] = [];
    for (const { key, value } of entries) {
      if (key === this.id && !this.lost) continue;
      const check = savedRunFrom(value, key, this.vocabOf);
      if (!check.ok) refused.push({ id: key, problem: check.problem });
      else
        runs.push({
          id: key,
          settings: check.run.settings,
          updates: check.run.updates,
          savedAt: check.run.savedAt,
          curves: check.run.curves,
        });
    }
    runs.sort((a, b) => b.savedAt - a.savedAt);
    return { runs, refused };
  }

  async discard(id: string): Promise<void> {
    await this.host.store.remove(id);
  }

  private letGo(): void {
    this.release?.();
    this.release = null;
  }
}
