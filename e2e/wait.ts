// How long the e2e specs wait, in one place. Every wait is for a state the page shows (a data attribute, a
// message, a download, a number of curve points) and ends as soon as it is there, so a long limit costs
// nothing when the page is quick; a limit is reached only when the state never comes. The limits are sized
// for a machine twice as slow as a two-core one with the whole suite running and every core kept busy beside
// it (`npm run test:stress`): the slowest single state, a training update on SwiftShader WebGPU, takes
// seconds there.

/** The longest wait for one state of the page: Playwright's default for every action and wait, and expect.poll's. */
export const STATE_MS = 240_000;

/** How often expect.poll reads the page again. */
export const POLL_MS = 100;

/** The limit of one whole test, a series of such waits. */
export const TEST_MS = 1_200_000;

/** The limit of a hook: launching or closing Chromium, serving the site. */
export const HOOK_MS = 300_000;
