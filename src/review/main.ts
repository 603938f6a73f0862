import { runAgentAction } from '../agent/action.js'
import { readSettings } from '../agent/settings.js'
import { coreRunner } from '../runner/core-runner.js'
import type { Runner } from '../runner/runner.js'
import { prepareReview } from './review-action.js'

/** The review sub-action: reviews of the agent's docs pull requests reach their jobs. */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  await runAgentAction(runner, {
    read: ({ input, env, mask }) => readSettings(input, env, mask),
    prepare: prepareReview
  })
}
