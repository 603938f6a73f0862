import { CommonInput } from '../mintlify/connection.js'

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
  Timeout: 'timeout',
  ChangesSince: 'changes-since',
  GithubToken: 'github-token'
} as const

export const GapsOutput = {
  Searches: 'searches',
  Feedback: 'feedback',
  Unanswered: 'unanswered',
  Total: 'total',
  Prompt: 'prompt',
  File: 'file',
  Requests: 'requests',
  Complete: 'complete',
  TopComplete: 'top-complete',
  Causes: 'causes'
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
