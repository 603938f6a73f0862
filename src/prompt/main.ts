import { runAgentAction } from '../agent/action.js'
import { readSettings } from '../agent/settings.js'
import { coreRunner } from '../runner/core-runner.js'
import type { Runner } from '../runner/runner.js'
import { preparePromptRun } from './prompt-run.js'

/** The main action: a prompt, an issue or a comment becomes a job, waited for and reported. */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  await runAgentAction(runner, {
    read: ({ input, env, mask }) => readSettings(input, env, mask),
    prepare: preparePromptRun
  })
}
