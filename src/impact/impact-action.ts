import type { RunEvent } from '../github/event.js'
import { InputError } from '../runner/errors.js'
import { counted } from '../runner/text.js'
import type { RunEnd } from '../agent/agent-run.js'
import type { AgentAction } from '../agent/agent-run.js'
import { Input, Key } from '../agent/names.js'
import { nothingStarted } from '../agent/outcome.js'
import type { FlowDeps } from '../agent/prepared-run.js'
import { type Settings, withPolicy } from '../agent/settings.js'
import { ImpactInputs, ImpactOutput } from './names.js'
import { type ImpactDeps, measureReaderImpact } from './impact-run.js'

export const impactAction: AgentAction<Settings> = {
  name: 'impact',
  defaults: ImpactInputs.defaults,
  checkInputs: inputs => {
    if (!inputs.docsToken)
      throw new InputError(
        `Input '${Input.DocsToken}' is required: the docs pull requests' files are read, and the result commented on them, in the docs repository.`
      )
  },
  settings: (inputs, policy) => {
    const settings = withPolicy(inputs, policy)
    if (!settings.dashboard)
      throw new InputError(
        `The impact sub-action needs '${Key.Dashboard}: true' in the policy file: the merged docs pull requests to measure, and what was measured, are in the dashboard's ledger.`
      )
    return settings
  },
  prepare: measureImpact
}

/**
 * The impact sub-action's run: each merged docs pull request of the dashboard whose windows are
 * over is measured once (impact-run.ts); it starts no job, and what it measured is the run's end.
 */
export async function measureImpact(
  settings: Settings,
  event: RunEvent,
  deps: FlowDeps & Pick<ImpactDeps, 'service'>
): Promise<RunEnd> {
  const impactAfter = settings.impactAfter
  if (!impactAfter) throw new InputError(`Input '${Input.ImpactAfter}' is required.`)
  const end = await measureReaderImpact({ ...settings, impactAfter }, event, deps)
  const unmeasurable = end.unmeasurable.length
    ? `, settled ${counted(end.unmeasurable.length, 'other')} it could not measure`
    : ''
  const said = `This run measured the reader impact of ${counted(end.measured.length, 'docs pull request')} (${counted(end.requests, 'analytics request')})${unmeasurable} and started no job.`
  deps.log.notice(said)
  return {
    outcome: nothingStarted(said, false, settings.dryRun),
    dashboardUrl: end.dashboardUrl,
    ownOutputs: {
      [ImpactOutput.Measured]: String(end.measured.length),
      [ImpactOutput.PullRequests]: JSON.stringify(end.measured),
      [ImpactOutput.Requests]: String(end.requests),
      [ImpactOutput.DashboardUrl]: end.dashboardUrl ?? ''
    }
  }
}
