import path from 'node:path'
import { CommonInput, type Connection, readConnection } from '../mintlify/connection.js'
import { type DateValue, readDateRange } from '../runner/dates.js'
import { durationInput } from '../runner/duration.js'
import { InputError } from '../runner/errors.js'
import {
  type InputReader,
  type Masker,
  parseInteger,
  sendableSecret,
  withDefaults
} from '../runner/inputs.js'
import { resolveOutputFile, workspaceOf } from '../runner/workspace.js'
import { type ChangesSettings, readChangesSettings } from './changes-settings.js'
import { GapsDefaults, GapsInput } from './names.js'

/** The three signals, in the order they are read and reported. */
const SIGNALS = ['searches', 'feedback', 'assistant'] as const
export type Signal = (typeof SIGNALS)[number]

export type ReportFormat = 'json' | 'markdown'

/** Everything the docs-gaps report needs, validated before the first request. */
export interface GapsSettings extends Connection {
  dateFrom?: DateValue
  /** Exclusive: the service counts days before it. */
  dateTo?: DateValue
  signals: Signal[]
  top: number
  minHits: number
  maxRequests: number
  /** Absolute path inside the workspace. */
  outputFile: string
  /** The path as the user gave it, for messages and the `file` output. */
  outputFileShown: string
  format: ReportFormat
  timeoutMs: number
  /** `changes-since`: tie the gaps to the repository's changes since then; undefined when not asked. */
  changes?: ChangesSettings
}

export const MAX_TOP = 100
/** The organisation's whole hourly allowance of analytics requests. */
const MAX_REQUESTS = 100

export function readGapsSettings(
  get: InputReader,
  env: NodeJS.ProcessEnv,
  mask: Masker,
  now: number
): GapsSettings {
  const connection = readConnection(get, mask)
  // Every run of a sub-action calls the service: an unexpanded key is refused at once.
  sendableSecret(CommonInput.ApiKey, connection.apiKey)
  const value = withDefaults(get, GapsDefaults)
  const { from, to } = readDateRange(GapsInput.DateFrom, GapsInput.DateTo, get, now)
  const outputFileShown = value(GapsInput.OutputFile)
  return {
    ...connection,
    dateFrom: from,
    dateTo: to,
    signals: parseSignals(value(GapsInput.Signals)),
    top: parseInteger(GapsInput.Top, value(GapsInput.Top), 1, MAX_TOP),
    minHits: parseInteger(GapsInput.MinHits, value(GapsInput.MinHits), 1, 1_000_000),
    maxRequests: parseInteger(GapsInput.MaxRequests, value(GapsInput.MaxRequests), 1, MAX_REQUESTS),
    outputFile: resolveOutputFile(GapsInput.OutputFile, outputFileShown, workspaceOf(env)),
    outputFileShown,
    format: formatOf(outputFileShown),
    timeoutMs: durationInput(GapsInput.Timeout, value(GapsInput.Timeout), 1000, 6 * 3_600_000),
    changes: readChangesSettings(get, env, mask, now)
  }
}

/** A comma (or space) separated list of signals, each named once, read in the fixed order. */
export function parseSignals(raw: string): Signal[] {
  const names = raw
    .split(/[\s,]+/)
    .map(name => name.trim().toLowerCase())
    .filter(Boolean)
  const unknown = names.filter(name => !(SIGNALS as readonly string[]).includes(name))
  if (unknown.length || names.length === 0) {
    throw new InputError(
      `Input '${GapsInput.Signals}' must be a comma-separated list of ${SIGNALS.join(', ')}; got '${raw}'.`
    )
  }
  return SIGNALS.filter(signal => names.includes(signal))
}

function formatOf(file: string): ReportFormat {
  const ext = path.extname(file).toLowerCase()
  if (ext === '.json') return 'json'
  if (ext === '.md' || ext === '.markdown') return 'markdown'
  throw new InputError(
    `Input '${GapsInput.OutputFile}' must end in .json (the report as data) or .md (the report in Markdown); got '${file}'.`
  )
}
