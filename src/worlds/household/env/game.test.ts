import { describe, expect, it } from 'vitest';
import { Game } from './game.ts';
import { sceneFromJson, type Scene } from './scene.ts';

function kitchen(task: object, extra: object[] = []): Scene {
  return sceneFromJson({
    version: 1,
    room: 'kitchen',
    receptacles: [
      { name: 'cabinet 1' },
      { name: 'cabinet 2', openable: false },
      { name: 'countertop 1' },
      { name: 'fridge 1' },
      { name: 'microwave 1' },
      { name: 'sinkbasin 1' },
    ],
    objects: [
      { name: 'apple 1', in: 'cabinet 1' },
      { name: 'egg 1', in: 'cabinet 1' },
      { name: 'mug 2', in: 'countertop 1' },
      { name: 'mug 1', in: 'countertop 1' },
      { name: 'apple 2', in: 'fridge 1' },
      ...extra,
    ],
    task,
  });
}

const heatApple = {
  type: 'pick_heat_then_place_in_recep',
  goal: 'put a hot apple in countertop',
  object: 'apple',
  target: 'countertop',
};

describe('Game rules and feedback', () => {
  it('prints the opening observation in listing order', () => {
    const g = new Game(kitchen(heatApple));
    expect(g.observation).toBe(
      '-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room. Looking quickly around you, you see ' +
        'a cabinet 2, a cabinet 1, a countertop 1, a fridge 1, a microwave 1, and a sinkbasin 1.\n\n' +
        'Your task is to: put a hot apple in countertop.',
    );
    expect(g.admissibleCommands()).toEqual([
      'go to cabinet 2',
      'go to cabinet 1',
      'go to countertop 1',
      'go to fridge 1',
      'go to microwave 1',
      'go to sinkbasin 1',
      'inventory',
      'look',
    ]);
  });

  it('plays a heat task with ALFWorld feedback and wins with reward 10', () => {
    const g = new Game(kitchen(heatApple));
    const play = (c: string) => g.step(c).observation;
    expect(play('look')).toBe('You are in the middle of a room. Looking quickly around you, you see nothing.');
    expect(play('go to cabinet 1')).toBe('You arrive at cabinet 1. The cabinet 1 is closed.');
    expect(play('take apple 1 from cabinet 1')).toBe('Nothing happens.');
    expect(g.admissibleCommands()).toEqual([
      'go to cabinet 2',
      'go to countertop 1',
      'go to fridge 1',
      'go to microwave 1',
      'go to sinkbasin 1',
      'open cabinet 1',
      'examine cabinet 1',
      'inventory',
      'look',
    ]);
    expect(play('open cabinet 1')).toBe(
      'You open the cabinet 1. The cabinet 1 is open. In it, you see a apple 1, and a egg 1.',
    );
    expect(play('examine apple 1')).toBe("There's nothing special about apple 1.");
    expect(play('take apple 1 from cabinet 1')).toBe('You pick up the apple 1 from the cabinet 1.');
    expect(play('take egg 1 from cabinet 1')).toBe('Nothing happens.');
    expect(play('inventory')).toBe('You are carrying: a apple 1.');
    expect(play('look')).toBe('You are facing the cabinet 1. Next to it, you see nothing.');
    expect(play('close cabinet 1')).toBe('You close the cabinet 1.');
    expect(play('go to cabinet 1')).toBe('Nothing happens.');
    expect(play('heat apple 1 with microwave 1')).toBe('Nothing happens.');
    expect(play('go to microwave 1')).toBe('You arrive at microwave 1. The microwave 1 is closed.');
    expect(g.admissibleCommands()).toEqual([
      'go to cabinet 2',
      'go to cabinet 1',
      'go to countertop 1',
      'go to fridge 1',
      'go to sinkbasin 1',
      'open microwave 1',
      'examine microwave 1',
      'heat apple 1 with microwave 1',
      'examine apple 1',
      'inventory',
      'look',
    ]);
    expect(play('heat apple 1 with microwave 1')).toBe('You heat the apple 1 using the microwave 1.');
    expect(play('examine apple 1')).toBe('This is a hot apple 1.');
    const arrive = g.step('go to countertop 1');
    expect(arrive.observation).toBe('You arrive at countertop 1. On the countertop 1, you see a mug 2, and a mug 1.');
    expect(g.records.at(-1)).toMatchObject({
      location: 'countertop 1',
      holding: 'apple 1',
      seen: ['mug 2', 'mug 1'],
      step: 16,
    });
    const win = g.step('put apple 1 in/on countertop 1');
    expect(win).toEqual({
      observation: 'You put the apple 1 in/on the countertop 1.',
      reward: 10,
      done: true,
      won: true,
      valid: true,
    });
    expect(() => g.step('look')).toThrow(/episode is over/);
  });

  it('does not count a cold or plain apple for a hot task, and heating undoes cooling', () => {
    const g = new Game(kitchen(heatApple));
    for (const c of ['go to fridge 1', 'open fridge 1', 'take apple 2 from fridge 1', 'cool apple 2 with fridge 1'])
      g.step(c);
    expect(g.step('examine apple 2').observation).toBe('This is a cold apple 2.');
    const put = g.step('go to countertop 1');
    expect(put.won).toBe(false);
    expect(g.step('put apple 2 in/on countertop 1')).toMatchObject({ won: false, reward: 0, done: false });
  });

  it('shows a non-openable cabinet like a table and refuses to open it', () => {
    const g = new Game(kitchen(heatApple, [{ name: 'cup 1', in: 'cabinet 2' }]));
    expect(g.step('go to cabinet 2').observation).toBe('You arrive at cabinet 2. On the cabinet 2, you see a cup 1.');
    expect(g.step('open cabinet 2')).toMatchObject({ observation: 'Nothing happens.', valid: false });
    expect(g.step('examine cabinet 2').observation).toBe('On the cabinet 2, you see a cup 1.');
  });

  it('cleans at the sinkbasin, accepts extra spaces and capitals, and rejects cleaning what is not cleanable', () => {
    const g = new Game(
      kitchen(
        {
          type: 'pick_clean_then_place_in_recep',
          goal: 'clean some mug and put it in fridge',
          object: 'mug',
          target: 'fridge',
        },
        [{ name: 'bread 1', in: 'sinkbasin 1' }],
      ),
    );
    g.step('go to sinkbasin 1');
    g.step('take bread 1 from sinkbasin 1');
    expect(g.step('clean bread 1 with sinkbasin 1').observation).toBe('Nothing happens.');
    g.step('put bread 1 in/on sinkbasin 1');
    g.step('go to countertop 1');
    expect(g.step('  Take  MUG 1 from countertop 1 ').observation).toBe('You pick up the mug 1 from the countertop 1.');
    g.step('go to sinkbasin 1');
    expect(g.step('clean mug 1 with sinkbasin 1').observation).toBe('You clean the mug 1 using the sinkbasin 1.');
    g.step('go to fridge 1');
    expect(g.step('put mug 1 in/on fridge 1').observation).toBe('Nothing happens.');
    expect(g.step('open fridge 1').observation).toBe(
      'You open the fridge 1. The fridge 1 is open. In it, you see a apple 2.',
    );
    expect(g.step('put mug 1 in/on fridge 1')).toMatchObject({ won: true, reward: 10 });
  });

  it('ends the episode after maxSteps commands, valid or not', () => {
    const g = new Game(kitchen(heatApple), { maxSteps: 3 });
    expect(g.step('dance').done).toBe(false);
    expect(g.step('look').done).toBe(false);
    expect(g.step('inventory')).toEqual({
      observation: 'You are not carrying anything.',
      reward: 0,
      done: true,
      won: false,
      valid: true,
    });
    expect(g.steps).toBe(3);
  });

  it('wins a look_at task by turning on the lamp while holding the object, not before', () => {
    const scene = sceneFromJson({
      version: 1,
      room: 'bedroom',
      receptacles: [{ name: 'desk 1' }, { name: 'drawer 1', openable: true }, { name: 'bed 1' }],
      objects: [
        { name: 'desklamp 1', in: 'desk 1' },
        { name: 'book 1', in: 'bed 1' },
        { name: 'cd 1', in: 'desk 1' },
      ],
      task: {
        type: 'look_at_obj_in_light',
        goal: 'examine the book with the desklamp',
        object: 'book',
        lamp: 'desklamp',
      },
    });
    const g = new Game(scene);
    g.step('go to desk 1');
    expect(g.admissibleCommands()).toEqual([
      'go to bed 1',
      'go to drawer 1',
      'examine desk 1',
      'take cd 1 from desk 1',
      'use desklamp 1',
      'examine cd 1',
      'examine desklamp 1',
      'inventory',
      'look',
    ]);
    expect(g.step('use desklamp 1')).toMatchObject({ observation: 'You turn on the desklamp 1.', won: false });
    expect(g.step('use desklamp 1').observation).toBe('You turn off the desklamp 1.');
    g.step('go to bed 1');
    expect(g.step('use desklamp 1').observation).toBe('Nothing happens.');
    g.step('take book 1 from bed 1');
    g.step('go to desk 1');
    expect(g.step('use desklamp 1')).toEqual({
      observation: 'You turn on the desklamp 1.',
      reward: 10,
      done: true,
      won: true,
      valid: true,
    });
  });

  it('needs two objects of the type in one receptacle for a two-object task', () => {
    const g = new Game(
      kitchen({ type: 'pick_two_obj_and_place', goal: 'put two mug in cabinet', object: 'mug', target: 'cabinet' }),
    );
    const plan = g.expertPlan();
    expect(plan).toEqual([
      'go to countertop 1',
      'take mug 2 from countertop 1',
      'go to cabinet 2',
      'put mug 2 in/on cabinet 2',
      'go to countertop 1',
      'take mug 1 from countertop 1',
      'go to cabinet 2',
      'put mug 1 in/on cabinet 2',
    ]);
    g.step('go to countertop 1');
    g.step('take mug 2 from countertop 1');
    g.step('go to cabinet 2');
    expect(g.step('put mug 2 in/on cabinet 2').won).toBe(false);
    g.step('go to countertop 1');
    g.step('take mug 1 from countertop 1');
    g.step('go to cabinet 1');
    g.step('open cabinet 1');
    expect(g.step('put mug 1 in/on cabinet 1').won).toBe(false);
    expect(g.expertPlan()).toEqual(['take mug 1 from cabinet 1', 'go to cabinet 2', 'put mug 1 in/on cabinet 2']);
  });
});
