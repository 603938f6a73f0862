import { runAgentAction } from '../agent/action.js'
import { coreRunner } from '../runner/core-runner.js'
import type { Runner } from '../runner/runner.js'
import { impactAction } from './impact-action.js'

/** The impact sub-action: readers before and after each merged docs pull request. */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  await runAgentAction(runner, impactAction)
}
