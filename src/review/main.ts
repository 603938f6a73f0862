import { runAgentAction } from '../agent/action.js'
import { coreRunner } from '../runner/core-runner.js'
import type { Runner } from '../runner/runner.js'
import { reviewAction } from './review-action.js'

/** The review sub-action: reviews of the agent's docs pull requests reach their jobs. */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  await runAgentAction(runner, reviewAction)
}
