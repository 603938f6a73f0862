import { type DateValue, readDateRange } from '../runner/dates.js'
import { HOUR_MS, durationInput } from '../runner/duration.js'
import {
  type InputReader,
  type Masker,
  parseInteger,
  sendableSecret,
  withDefaults
} from '../runner/inputs.js'
import { resolveOutputFile, workspaceOf } from '../runner/workspace.js'
import { CommonInput, type Connection, readConnection } from './connection.js'

/** The names a sub-action gives the inputs every analytics report reads the same way. */
export interface ReportInputNames {
  DateFrom: string
  DateTo: string
  OutputFile: string
  Timeout: string
  Top: string
  MaxRequests: string
}

/** What every analytics sub-action (gaps, visitors) reads first, validated alike. */
export interface ReportInputs extends Connection {
  dateFrom?: DateValue
  /** Exclusive: the service counts days before it. */
  dateTo?: DateValue
  /** Absolute path inside the workspace. */
  outputFile: string
  /** The path as the user gave it, for messages and the `file` output. */
  outputFileShown: string
  timeoutMs: number
  /** How many of the report's entries are ranked and shown. */
  top: number
  /** Requests this run may make (the organisation's 100 an hour are shared with everything else). */
  maxRequests: number
}

/** A sub-action's whole run, reading included, ends within this. */
const MAX_TIMEOUT_MS = 6 * HOUR_MS
/** The most entries a report ranks. */
export const MAX_TOP = 100

/**
 * The connection (its key refused at once when it cannot be sent: every run of a sub-action calls
 * the service), the date range, the output file in the workspace, the time limit, the top and the
 * request cap (at most `maxRequests`: each sub-action has its own bound).
 */
export function readReportInputs(
  get: InputReader,
  env: NodeJS.ProcessEnv,
  mask: Masker,
  now: number,
  names: ReportInputNames,
  defaults: Readonly<Record<string, string>>,
  maxRequests: number
): ReportInputs {
  const connection = readConnection(get, mask)
  sendableSecret(CommonInput.ApiKey, connection.apiKey)
  const value = withDefaults(get, defaults)
  const { from, to } = readDateRange(names.DateFrom, names.DateTo, get, now)
  const outputFileShown = value(names.OutputFile)
  return {
    ...connection,
    dateFrom: from,
    dateTo: to,
    outputFile: resolveOutputFile(names.OutputFile, outputFileShown, workspaceOf(env)),
    outputFileShown,
    timeoutMs: durationInput(names.Timeout, value(names.Timeout), 1000, MAX_TIMEOUT_MS),
    top: parseInteger(names.Top, value(names.Top), 1, MAX_TOP),
    maxRequests: parseInteger(names.MaxRequests, value(names.MaxRequests), 1, maxRequests)
  }
}
