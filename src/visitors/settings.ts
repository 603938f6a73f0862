import path from 'node:path'
import { CommonInput, type Connection, readConnection } from '../mintlify/connection.js'
import { durationInput } from '../runner/duration.js'
import {
  type InputReader,
  type Masker,
  parseChoice,
  parseInteger,
  sendableSecret,
  withDefaults
} from '../runner/inputs.js'
import { resolveOutputFile, workspaceOf } from '../runner/workspace.js'
import { InputError } from '../runner/errors.js'
import { type DateValue, readDateRange } from '../runner/dates.js'
import { VisitorsDefaults, VisitorsInput } from './names.js'

/** The export's file formats and the keys that rank its top pages. */
const FORMATS = ['auto', 'json', 'csv'] as const
export const SORT_KEYS = ['total', 'human', 'ai'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export type FileFormat = Exclude<(typeof FORMATS)[number], 'auto'>

/** Everything the visitors export needs, validated before the first request. */
export interface VisitorsSettings extends Connection {
  dateFrom?: DateValue
  /** Exclusive: the service counts days before it. */
  dateTo?: DateValue
  /** Absolute path inside the workspace. */
  outputFile: string
  /** The path as the user gave it, for messages and the `file` output. */
  outputFileShown: string
  format: FileFormat
  pageSize: number
  /** The first row to export: 0, or an earlier run's `next-offset`. */
  offset: number
  top: number
  sortBy: SortKey
  /** Requests this run may make (the organisation's 100 an hour are shared with everything else). */
  maxRequests: number
  timeoutMs: number
}

export const MAX_TOP = 100
/**
 * The most `max-requests` may be: 25 million rows at 250 a page. The documented limit is 100 an hour,
 * so runs near it need a limit the service has raised; memory does not grow with the rows.
 */
const MAX_REQUESTS = 100_000

export function readVisitorsSettings(
  get: InputReader,
  env: NodeJS.ProcessEnv,
  mask: Masker,
  now: number
): VisitorsSettings {
  const connection = readConnection(get, mask)
  // Every run of a sub-action calls the service: an unexpanded key is refused at once.
  sendableSecret(CommonInput.ApiKey, connection.apiKey)
  const value = withDefaults(get, VisitorsDefaults)
  const { from: dateFrom, to: dateTo } = readDateRange(
    VisitorsInput.DateFrom,
    VisitorsInput.DateTo,
    get,
    now
  )
  const outputFileShown = value(VisitorsInput.OutputFile)
  const outputFile = resolveOutputFile(VisitorsInput.OutputFile, outputFileShown, workspaceOf(env))
  const format = formatOf(
    parseChoice(VisitorsInput.Format, value(VisitorsInput.Format), FORMATS),
    outputFileShown
  )
  return {
    ...connection,
    dateFrom,
    dateTo,
    outputFile,
    outputFileShown,
    format,
    pageSize: parseInteger(VisitorsInput.PageSize, value(VisitorsInput.PageSize), 1, 250),
    offset: parseInteger(VisitorsInput.Offset, value(VisitorsInput.Offset), 0, 1_000_000_000),
    top: parseInteger(VisitorsInput.Top, value(VisitorsInput.Top), 1, MAX_TOP),
    sortBy: parseChoice(VisitorsInput.SortBy, value(VisitorsInput.SortBy), SORT_KEYS),
    maxRequests: parseInteger(
      VisitorsInput.MaxRequests,
      value(VisitorsInput.MaxRequests),
      1,
      MAX_REQUESTS
    ),
    timeoutMs: durationInput(
      VisitorsInput.Timeout,
      value(VisitorsInput.Timeout),
      1000,
      6 * 3_600_000
    )
  }
}

function formatOf(format: (typeof FORMATS)[number], file: string): FileFormat {
  if (format !== 'auto') return format
  const ext = path.extname(file).toLowerCase()
  if (ext === '.json') return 'json'
  if (ext === '.csv') return 'csv'
  throw new InputError(
    `Input '${VisitorsInput.Format}' is 'auto', but '${file}' ends in neither .json nor .csv; set '${VisitorsInput.Format}' to json or csv.`
  )
}
