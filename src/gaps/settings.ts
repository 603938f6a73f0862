import path from 'node:path'
import { type ReportInputs, readReportInputs } from '../mintlify/report-inputs.js'
import { InputError } from '../runner/errors.js'
import { type InputReader, type Masker, parseInteger, withDefaults } from '../runner/inputs.js'
import { type ChangesSettings, readChangesSettings } from './changes-settings.js'
import { GapsDefaults, GapsInput } from './names.js'

/** The three signals, in the order they are read and reported. */
const SIGNALS = ['searches', 'feedback', 'assistant'] as const
export type Signal = (typeof SIGNALS)[number]

export type ReportFormat = 'json' | 'markdown'

/** Everything the docs-gaps report needs, validated before the first request. */
export interface GapsSettings extends ReportInputs {
  signals: Signal[]
  minHits: number
  format: ReportFormat
  /** `changes-since`: tie the gaps to the repository's changes since then; undefined when not asked. */
  changes?: ChangesSettings
}

/** The organisation's whole hourly allowance of analytics requests. */
const MAX_REQUESTS = 100

export function readGapsSettings(
  get: InputReader,
  env: NodeJS.ProcessEnv,
  mask: Masker,
  now: number
): GapsSettings {
  const value = withDefaults(get, GapsDefaults)
  const report = readReportInputs(get, env, mask, now, GapsInput, GapsDefaults, MAX_REQUESTS)
  return {
    ...report,
    signals: parseSignals(value(GapsInput.Signals)),
    minHits: parseInteger(GapsInput.MinHits, value(GapsInput.MinHits), 1, 1_000_000),
    format: formatOf(report.outputFileShown),
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
