import { Input, actionInputs } from '../agent/names.js'

/** The review sub-action's inputs (review/action.yml). */
export const ReviewInputs = actionInputs([
  Input.ApiKey,
  Input.ProjectId,
  Input.ApiUrl,
  Input.GithubToken,
  Input.DocsToken,
  Input.FollowReviews,
  Input.Comment,
  Input.DryRun,
  Input.Timeout,
  Input.FailOn,
  Input.Wait,
  Input.PollInterval,
  Input.TriggerPhrase,
  Input.RequiredPermission,
  Input.AllowedBots,
  Input.Prompt,
  Input.PromptFile
])
