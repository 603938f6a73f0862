import { CommonInput, DEFAULT_API_URL } from '../mintlify/connection.js'

/** Input and output names of the agent action (action.yml), defined once; action.yml and the docs are tested against them. */
export const Input = {
  ...CommonInput,
  Prompt: 'prompt',
  PromptFile: 'prompt-file',
  JobId: 'job-id',
  Wait: 'wait',
  Timeout: 'timeout',
  PollInterval: 'poll-interval',
  FailOn: 'fail-on',
  GithubToken: 'github-token',
  Comment: 'comment',
  IssueNumber: 'issue-number',
  TriggerPhrase: 'trigger-phrase',
  Label: 'label',
  DocsToken: 'docs-token',
  DryRun: 'dry-run',
  Config: 'config',
  FollowReviews: 'follow-reviews',
  ImpactAfter: 'impact-after',
  ImpactComment: 'impact-comment',
  MaxRequests: 'max-requests',
  CodeToken: 'code-token'
} as const

/** Keys of the policy file (src/policy/schema.ts) that messages name. */
export const Key = {
  RequiredPermission: 'required-permission',
  AllowedBots: 'allowed-bots',
  Instructions: 'instructions',
  Paths: 'paths',
  SkipLabel: 'skip-label',
  Fold: 'fold',
  CodeRepositories: 'code-repositories',
  Since: 'since',
  Dashboard: 'dashboard',
  Approval: 'approval',
  MaxJobs: 'max-jobs',
  MaxCredits: 'max-credits',
  CreditsPerRun: 'credits-per-run',
  MaxOpen: 'max-open',
  ExpireAfter: 'expire-after',
  KeepLabel: 'keep-label',
  Reviewers: 'reviewers'
} as const

export const Output = {
  JobId: 'jobId',
  Status: 'status',
  PrLink: 'prLink',
  Model: 'model',
  Job: 'job',
  Result: 'result',
  Source: 'source',
  Decision: 'decision',
  Prompt: 'prompt'
} as const

/** Defaults as in action.yml; applied here too because a bare `node dist/index.js` gets no defaults from the runner. */
export const Defaults = {
  [Input.ApiUrl]: DEFAULT_API_URL,
  [Input.Wait]: 'true',
  [Input.Timeout]: '30m',
  [Input.PollInterval]: '10s',
  [Input.FailOn]: 'failed,timeout',
  [Input.Comment]: 'auto',
  [Input.TriggerPhrase]: '/docs-agent',
  [Input.Label]: 'docs-agent',
  [Input.DryRun]: 'false',
  [Input.FollowReviews]: 'phrase',
  [Input.ImpactAfter]: '14d',
  [Input.ImpactComment]: 'pr',
  [Input.MaxRequests]: '20'
} as const

/** The repository of the actions, as a workflow's `uses:` names it. */
export const ACTION_REPOSITORY = 'mintlify/agent-action'
/**
 * The major version the docs describe and messages name (`@v2`): test/unit/pinned-actions.test.ts
 * keeps it equal to the documented major (package.json's, or the next one while it is unreleased).
 */
export const USES_MAJOR = 'v2'

/** The sub-actions: each a folder of this repository with its own action.yml. */
export const SubAction = {
  Changes: 'changes',
  Review: 'review',
  Impact: 'impact'
} as const

/** How a workflow names an action of this repository: the main one, or a sub-action. */
export const subActionUses = (name?: (typeof SubAction)[keyof typeof SubAction]): string =>
  `${ACTION_REPOSITORY}${name ? `/${name}` : ''}@${USES_MAJOR}`

/**
 * One action's inputs (src/policy/actions.ts names them for every agent action; its action.yml
 * declares exactly these, and a test holds them equal), with the defaults of those that have one.
 */
export function actionInputs(names: readonly string[]): {
  names: readonly string[]
  defaults: Readonly<Partial<Record<string, string>>>
} {
  const defaults: Partial<Record<string, string>> = {}
  for (const name of names)
    if (name in Defaults) defaults[name] = Defaults[name as keyof typeof Defaults]
  return { names, defaults }
}

/** Names of the values the main step saves for the post step. */
export const State = {
  Comment: 'comment'
} as const
