import { Input, actionInputs } from '../agent/names.js'

/** The main action's inputs (action.yml). */
export const PromptInputs = actionInputs([
  Input.ApiKey,
  Input.ProjectId,
  Input.ApiUrl,
  Input.Prompt,
  Input.PromptFile,
  Input.JobId,
  Input.Wait,
  Input.Timeout,
  Input.PollInterval,
  Input.FailOn,
  Input.GithubToken,
  Input.DocsToken,
  Input.Comment,
  Input.IssueNumber,
  Input.DryRun,
  Input.TriggerPhrase,
  Input.Label,
  Input.RequiredPermission,
  Input.AllowedBots,
  Input.Dashboard,
  Input.DashboardTitle,
  Input.MaxJobs
])
