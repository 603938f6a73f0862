import { type CodeChangeServers, DOCS_TOKEN, REPOSITORY } from './code-change-runs.js'
import type { RunOptions } from './run-action.js'

/**
 * The step of a scheduled run of the impact sub-action (`impact-after: 14d`, docs-token), as
 * `inputs` change it; a new run id each time.
 */
export function measuringStep(
  servers: CodeChangeServers,
  inputs: Record<string, string> = {}
): RunOptions {
  servers.runId++
  return servers.step({
    entry: 'dist/impact/index.js',
    event: { schedule: '0 6 * * 1', repository: REPOSITORY },
    eventName: 'schedule',
    inputs: { 'docs-token': DOCS_TOKEN, 'impact-after': '14d', ...inputs }
  })
}
