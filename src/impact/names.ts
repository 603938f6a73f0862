import { actionInputs } from '../agent/names.js'
import { ACTION_INPUTS } from '../policy/actions.js'

/** The impact sub-action's inputs (impact/action.yml). */
export const ImpactInputs = actionInputs(ACTION_INPUTS.impact)

/** The impact sub-action's own outputs (impact/action.yml), beside `result`. */
export const ImpactOutput = {
  Measured: 'measured',
  PullRequests: 'pull-requests',
  Requests: 'requests',
  DashboardUrl: 'dashboard-url'
} as const
