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
  RequiredPermission: 'required-permission',
  AllowedBots: 'allowed-bots',
  Fold: 'fold',
  SkipLabel: 'skip-label',
  IncludeDiff: 'include-diff',
  DocsToken: 'docs-token',
  Dashboard: 'dashboard',
  DashboardTitle: 'dashboard-title',
  Changes: 'changes',
  DryRun: 'dry-run',
  Paths: 'paths',
  PathsIgnore: 'paths-ignore',
  MaxJobs: 'max-jobs',
  ExpireAfter: 'expire-after',
  KeepLabel: 'keep-label',
  MaxOpen: 'max-open',
  Reviewers: 'reviewers',
  FollowReviews: 'follow-reviews',
  Approval: 'approval',
  ImpactAfter: 'impact-after',
  ImpactComment: 'impact-comment',
  MaxRequests: 'max-requests',
  CodeRepositories: 'code-repositories',
  CodeToken: 'code-token',
  Since: 'since'
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
  [Input.RequiredPermission]: 'write',
  [Input.Fold]: 'open-pr',
  [Input.SkipLabel]: 'no-docs',
  [Input.KeepLabel]: 'docs-agent-keep',
  [Input.IncludeDiff]: 'false',
  [Input.Dashboard]: 'true',
  [Input.DashboardTitle]: 'Docs agent dashboard',
  [Input.Changes]: 'event',
  [Input.DryRun]: 'false',
  [Input.FollowReviews]: 'phrase',
  [Input.Approval]: 'none',
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

type InputName = (typeof Input)[keyof typeof Input]

/**
 * One action's inputs, picked from the names above (its action.yml declares exactly these, and a
 * test holds them equal), with the defaults of those that have one.
 */
export function actionInputs<const N extends InputName>(
  names: readonly N[]
): { names: readonly N[]; defaults: Partial<Record<N, string>> } {
  const defaults: Partial<Record<N, string>> = {}
  for (const name of names)
    if (name in Defaults) defaults[name] = Defaults[name as keyof typeof Defaults]
  return { names, defaults }
}

/** Names of the values the main step saves for the post step. */
export const State = {
  Comment: 'comment'
} as const
