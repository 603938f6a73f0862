import { CommonInput } from '../mintlify/connection.js'

/** Input and output names of the visitors sub-action (visitors/action.yml), defined once. */
export const VisitorsInput = {
  ...CommonInput,
  DateFrom: 'date-from',
  DateTo: 'date-to',
  OutputFile: 'output-file',
  Format: 'format',
  PageSize: 'page-size',
  Offset: 'offset',
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
  TopPaths: 'top-paths',
  Complete: 'complete',
  NextOffset: 'next-offset'
} as const

/** Defaults as in visitors/action.yml, applied here too for runs without the runner. */
export const VisitorsDefaults = {
  [VisitorsInput.OutputFile]: 'mintlify-visitors.json',
  [VisitorsInput.Format]: 'auto',
  [VisitorsInput.PageSize]: '250',
  [VisitorsInput.Offset]: '0',
  [VisitorsInput.Top]: '10',
  [VisitorsInput.SortBy]: 'total',
  [VisitorsInput.MaxRequests]: '50',
  [VisitorsInput.Timeout]: '10m'
} as const
