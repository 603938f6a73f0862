import { runAgentAction } from '../agent/action.js'
import { readSettings } from '../agent/settings.js'
import { coreRunner } from '../runner/core-runner.js'
import type { Runner } from '../runner/runner.js'
import { measureImpact } from './impact-action.js'

/** The impact sub-action: readers before and after each merged docs pull request. */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  await runAgentAction(runner, {
    read: ({ input, env, mask }) => readSettings(input, env, mask),
    prepare: measureImpact
  })
}
