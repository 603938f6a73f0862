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

/** Names of the values the main step saves for the post step. */
export const State = {
  Comment: 'comment'
} as const
