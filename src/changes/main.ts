import { runAgentAction } from '../agent/action.js'
import { coreRunner } from '../runner/core-runner.js'
import type { Runner } from '../runner/runner.js'
import { changesAction } from './changes-action.js'

/** The changes sub-action: docs follow code, from merges, pushes, dispatches and catch-ups. */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  await runAgentAction(runner, changesAction)
}
