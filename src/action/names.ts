/** Inputs both actions take, with the same meaning. */
export const CommonInput = {
  ApiKey: 'api-key',
  ProjectId: 'project-id',
  ApiUrl: 'api-url'
} as const

export const DEFAULT_API_URL = 'https://api.mintlify.com'

/** Input and output names of the agent action, defined once; action.yml and the README are tested against them. */
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
  RequiredPermission: 'required-permission',
  AllowedBots: 'allowed-bots',
  Fold: 'fold',
  SkipLabel: 'skip-label',
  IncludeDiff: 'include-diff',
  DocsToken: 'docs-token'
} as const

export const Output = {
  JobId: 'jobId',
  Status: 'status',
  PrLink: 'prLink',
  Model: 'model',
  Job: 'job',
  Result: 'result',
  Source: 'source'
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
  [Input.RequiredPermission]: 'write',
  [Input.Fold]: 'open-pr',
  [Input.SkipLabel]: 'no-docs',
  [Input.IncludeDiff]: 'false'
} as const

/** Names of the values the main step saves for the post step. */
export const State = {
  Comment: 'comment'
} as const

/** Input and output names of the visitors sub-action (visitors/action.yml), defined once. */
export const VisitorsInput = {
  ...CommonInput,
  DateFrom: 'date-from',
  DateTo: 'date-to',
  OutputFile: 'output-file',
  Format: 'format',
  PageSize: 'page-size',
  Top: 'top',
  SortBy: 'sort-by',
  MaxRequests: 'max-requests',
  Timeout: 'timeout'
} as const

export const VisitorsOutput = {
  Human: 'human',
  Ai: 'ai',
  Total: 'total',
  Pages: 'pages',
  File: 'file',
  TopPaths: 'top-paths'
} as const

/** Defaults as in visitors/action.yml, applied here too for runs without the runner. */
export const VisitorsDefaults = {
  [VisitorsInput.OutputFile]: 'mintlify-visitors.json',
  [VisitorsInput.Format]: 'auto',
  [VisitorsInput.PageSize]: '250',
  [VisitorsInput.Top]: '10',
  [VisitorsInput.SortBy]: 'total',
  [VisitorsInput.MaxRequests]: '50',
  [VisitorsInput.Timeout]: '10m'
} as const

/** Input and output names of the docs-gaps sub-action (gaps/action.yml), defined once. */
export const GapsInput = {
  ...CommonInput,
  DateFrom: 'date-from',
  DateTo: 'date-to',
  Signals: 'signals',
  Top: 'top',
  MinHits: 'min-hits',
  MaxRequests: 'max-requests',
  OutputFile: 'output-file',
  Timeout: 'timeout'
} as const

export const GapsOutput = {
  Searches: 'searches',
  Feedback: 'feedback',
  Unanswered: 'unanswered',
  Total: 'total',
  Prompt: 'prompt',
  File: 'file',
  Requests: 'requests',
  Complete: 'complete'
} as const

/** Defaults as in gaps/action.yml, applied here too for runs without the runner. */
export const GapsDefaults = {
  [GapsInput.Signals]: 'searches,feedback,assistant',
  [GapsInput.Top]: '10',
  [GapsInput.MinHits]: '2',
  [GapsInput.MaxRequests]: '20',
  [GapsInput.OutputFile]: 'mintlify-gaps.json',
  [GapsInput.Timeout]: '10m'
} as const
