import { runAgentAction } from '../agent/action.js'
import { coreRunner } from '../runner/core-runner.js'
import type { Runner } from '../runner/runner.js'
import { promptAction } from './prompt-run.js'

/** The main action: a prompt, an issue or a comment becomes a job, waited for and reported. */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  await runAgentAction(runner, promptAction)
}
