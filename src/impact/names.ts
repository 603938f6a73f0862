import { Input, actionInputs } from '../agent/names.js'

/** The impact sub-action's inputs (impact/action.yml). */
export const ImpactInputs = actionInputs([
  Input.ApiKey,
  Input.ProjectId,
  Input.ApiUrl,
  Input.GithubToken,
  Input.DocsToken,
  Input.ImpactAfter,
  Input.ImpactComment,
  Input.MaxRequests,
  Input.DryRun,
  Input.Timeout,
  Input.DashboardTitle
])
