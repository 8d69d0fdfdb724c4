// A race arm's record of its worker's events, and a race driven end to end over stand-in workers: both arms
// start from the page's settings and play, the page's own run pauses the race, and one arm's failure ends the
// other with a message naming the arm.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent, EngineInfo, UpdateMetrics } from '../../worker/protocol.ts';
import { defaultSettings, type Settings } from '../../rl/page_settings.ts';
import { armAfterEvent, armStarted, newArm } from './arm.ts';

interface FakeArm {
  settings: Settings | null;
  onEvent: (event: EngineEvent) => void;
  terminated: boolean;
  failWorker: (message: string) => void;
  rejectPlay: (err: Error) => void;
  playing: boolean;
}

const fakes: FakeArm[] = [];

vi.mock('../engine_client.ts', () => ({
  startEngine: (onEvent: (event: EngineEvent) => void, threads: number | null, keepRuns: boolean) => {
    expect(threads).toBeGreaterThanOrEqual(1);
    expect(keepRuns).toBe(false);
    const errorListeners: ((e: { message: string }) => void)[] = [];
    let endPlay: (() => void) | null = null;
    const arm: FakeArm = {
      settings: null,
      onEvent,
      terminated: false,
      playing: false,
      failWorker: (message) => {
        for (const l of errorListeners) l({ message });
      },
      rejectPlay: () => undefined,
    };
    fakes.push(arm);
    const info = (s: Settings): EngineInfo => ({
      runId: 'x',
      backend: {
        kind: 'cpu',
        requested: 'auto',
        reason: '',
        adapter: null,
        fallback: null,
        cpuThreads: { threads: threads!, single: null },
      },
      initial: { source: 'warm', preset: s.preset, env: s.env, parameters: 1, random: false },
      runs: [s.algo as 'grpo'],
    });
    const engine = {
      start: async (s: Settings) => {
        arm.settings = s;
        return info(s);
      },
      play: () =>
        new Promise<void>((done, fail) => {
          arm.playing = true;
          endPlay = () => {
            arm.playing = false;
            done();
          };
          arm.rejectPlay = fail;
        }),
      pause: async () => endPlay?.(),
    };
    const worker = {
      terminate: () => {
        arm.terminated = true;
      },
      addEventListener: (_type: string, listener: (e: { message: string }) => void) => errorListeners.push(listener),
    };
    return { engine, worker };
  },
}));

const { useRace } = await import('./store.ts');
const { usePlayground } = await import('../store.ts');

function point(update: number, evalUnseen: number | null): UpdateMetrics {
  return { run: 'grpo', update, evalUnseen, evalSeen: evalUnseen } as UpdateMetrics;
}

const settle = () => new Promise((done) => setTimeout(done, 0));

describe('a race arm', () => {
  it('gains a point per update, notes a refused update, and ends when its device is lost', () => {
    let arm = newArm('grpo');
    arm = armAfterEvent(arm, { type: 'update', metrics: point(1, 0.5) }).arm;
    // An event that changes nothing of the arm gives the same arm back: nothing to render.
    expect(armAfterEvent(arm, { type: 'trajectory' } as EngineEvent).arm).toBe(arm);
    const noted = armAfterEvent(arm, { type: 'error', message: 'grpo update 2 was refused' });
    expect(noted.ended).toBeNull();
    expect(noted.arm.curve.map((m) => m.update)).toEqual([1]);
    expect(noted.arm.note).toBe('grpo update 2 was refused');
    expect(armAfterEvent(arm, { type: 'lost', message: 'the device was lost' }).ended).toBe('the device was lost');
  });

  it('says how it trains once started', () => {
    const info = { backend: { kind: 'cpu', cpuThreads: { threads: 2, single: null } } } as EngineInfo;
    expect(armStarted(newArm('grpo'), info).backend).toBe('CPU, 2 threads');
    expect(armStarted(newArm('grpo'), { backend: { kind: 'webgpu' } } as EngineInfo).backend).toBe('WebGPU');
  });
});

describe('a race', () => {
  beforeEach(() => {
    useRace.getState().stop();
    fakes.length = 0;
    usePlayground.setState({
      settings: { ...defaultSettings('micro'), algo: 'grpo', seed: 5 },
      engine: { state: 'ready' },
    });
  });

  it('starts both arms from the page settings and plays them; the page playing pauses it', async () => {
    await Promise.race([useRace.getState().start(), settle()]);
    await settle();
    expect(fakes.map((f) => [f.settings?.algo, f.settings?.seed])).toEqual([
      ['grpo', 5],
      ['seed-exact', 5],
    ]);
    expect(useRace.getState().phase).toBe('playing');
    expect(fakes.every((f) => f.playing)).toBe(true);
    fakes[1].onEvent({ type: 'update', metrics: point(1, 0.25) });
    expect(useRace.getState().arms[1].curve).toHaveLength(1);
    usePlayground.setState({ engine: { state: 'playing' } });
    await settle();
    expect(fakes.some((f) => f.playing)).toBe(false);
    expect(useRace.getState().phase).toBe('paused');
    expect(useRace.getState().message).toContain("the page's own run is playing");
  });

  it('stops the other arm when one fails, naming the arm that failed, and keeps the curves', async () => {
    void useRace.getState().start();
    await settle();
    fakes[0].onEvent({ type: 'update', metrics: point(1, 0.25) });
    fakes[1].failWorker('out of memory');
    const state = useRace.getState();
    expect(state.phase).toBe('failed');
    expect(state.message).toBe(
      'The seed-exact arm stopped: its training worker failed: out of memory. The other arm was stopped with it; the curves so far are kept.',
    );
    expect(fakes.map((f) => f.terminated)).toEqual([true, true]);
    expect(state.arms[0].curve).toHaveLength(1);
    // A late event of the failed race changes nothing.
    fakes[0].onEvent({ type: 'update', metrics: point(2, 0.25) });
    expect(useRace.getState().arms[0].curve).toHaveLength(1);
  });

  it('fails with the arm named when its play is refused', async () => {
    void useRace.getState().start();
    await settle();
    fakes[0].rejectPlay(new Error('settings out of range'));
    await settle();
    expect(useRace.getState().phase).toBe('failed');
    expect(useRace.getState().message).toContain('The grpo arm stopped: settings out of range.');
    expect(fakes[1].terminated).toBe(true);
  });
});
