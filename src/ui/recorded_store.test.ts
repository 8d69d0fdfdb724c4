// The recorded run's store follows the page's world: a switch shows the new world's record (loading it once), a
// late answer for a world the page has left is kept for it but not shown, a world's record or its lack of one is
// shown at once on the next switch, and a load that failed is tried again then.
import { describe, expect, it } from 'vitest';
import type { EnvironmentName } from '../worlds/names.ts';
import { record } from './curves_testing.ts';
import type { RecordedLoad } from './recorded_load.ts';
import { recordedStore, useRecorded } from './recorded_store.ts';
import { followPageWorld } from './world.ts';
import { usePlayground } from './store.ts';

/** A loader whose answers the test gives, world by world, and which counts its calls. */
function loader() {
  const calls: EnvironmentName[] = [];
  const answers = new Map<EnvironmentName, (load: RecordedLoad) => void>();
  const load = (world: EnvironmentName) => {
    calls.push(world);
    return new Promise<RecordedLoad>((done) => answers.set(world, done));
  };
  const answer = async (world: EnvironmentName, load: RecordedLoad) => {
    answers.get(world)!(load);
    await new Promise((done) => setTimeout(done, 0));
  };
  return { calls, load, answer };
}

const household: RecordedLoad = { state: 'ready', run: record(), url: 'runs/household.json' };
const none: RecordedLoad = { state: 'none', message: 'No recorded run of the shop: runs/index.json lists none.' };

describe("the recorded run's store", () => {
  it("shows the page's world's record, keeps a late answer for a world left, and loads each world once", async () => {
    const fake = loader();
    const store = recordedStore(fake.load);
    void store.getState().load('household');
    expect(store.getState()).toMatchObject({ world: 'household', recorded: { state: 'loading' } });
    // The page goes to the shop before the household's record comes.
    void store.getState().load('shop');
    await fake.answer('household', household);
    expect(store.getState()).toMatchObject({ world: 'shop', recorded: { state: 'loading' } });
    await fake.answer('shop', none);
    expect(store.getState().recorded).toEqual(none);
    expect(store.getState().update).toBeNull();
    // Back to the household: its record at once, scrubbed to its last recorded update, fetched no more.
    void store.getState().load('household');
    expect(store.getState()).toMatchObject({ world: 'household', recorded: household, update: 8 });
    void store.getState().load('shop');
    expect(store.getState().recorded).toEqual(none);
    expect(fake.calls).toEqual(['household', 'shop']);
  });

  it('tries a failed load again at the next switch to its world, not at every call', async () => {
    const fake = loader();
    const store = recordedStore(fake.load);
    void store.getState().load('shop');
    await fake.answer('shop', {
      state: 'failed',
      message: 'No recorded run: runs/index.json was not read (HTTP 503).',
    });
    void store.getState().load('shop');
    expect(fake.calls).toEqual(['shop']);
    void store.getState().load('household');
    void store.getState().load('shop');
    expect(store.getState().recorded.state).toBe('loading');
    expect(fake.calls).toEqual(['shop', 'household', 'shop']);
  });

  it("follows the world of the page's settings", () => {
    const loads: EnvironmentName[] = [];
    const load = useRecorded.getState().load;
    useRecorded.setState({ load: async (world) => void loads.push(world) });
    const settings = usePlayground.getState().settings;
    usePlayground.setState({ settings: { ...settings, env: 'household' }, runSettings: null });
    const stop = followPageWorld();
    try {
      expect(loads).toEqual(['household']);
      // The page's state changes as a run plays; the world does not, and nothing is loaded again.
      useRecorded.setState({ world: 'household' });
      usePlayground.setState({ notices: [] });
      usePlayground.setState({ settings: { ...settings, env: 'shop' } });
      expect(loads).toEqual(['household', 'shop']);
    } finally {
      stop();
      useRecorded.setState({ load, world: null });
      usePlayground.setState({ settings });
    }
  });
});
