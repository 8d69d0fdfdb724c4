// The training side of each world by its environment (rl_world.ts).
import type { Environment } from '../env/environment.ts';
import type { HouseholdEnvironment } from './household/env/household_environment.ts';
import type { ShopEnvironment } from './shop/env/environment.ts';
import { householdRl } from './household/rl/household_rl.ts';
import type { RlWorld } from '../rl/rl_world.ts';
import { shopRl } from './shop/rl/shop_rl.ts';

export function rlWorldOf(env: Environment): RlWorld {
  return (
    env.name === 'shop' ? shopRl(env as ShopEnvironment) : householdRl((env as HouseholdEnvironment).scale)
  ) as RlWorld;
}
