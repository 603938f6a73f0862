import path from 'node:path'
import { type ReportInputs, readReportInputs } from '../mintlify/report-inputs.js'
import {
  type InputReader,
  type Masker,
  parseChoice,
  parseInteger,
  withDefaults
} from '../runner/inputs.js'
import { InputError } from '../runner/errors.js'
import { VisitorsDefaults, VisitorsInput } from './names.js'

/** The export's file formats and the keys that rank its top pages. */
const FORMATS = ['auto', 'json', 'csv'] as const
export const SORT_KEYS = ['total', 'human', 'ai'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export type FileFormat = Exclude<(typeof FORMATS)[number], 'auto'>

/** Everything the visitors export needs, validated before the first request. */
export interface VisitorsSettings extends ReportInputs {
  format: FileFormat
  pageSize: number
  /** The first row to export: 0, or an earlier run's `next-offset`. */
  offset: number
  sortBy: SortKey
}

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
  const value = withDefaults(get, VisitorsDefaults)
  const report = readReportInputs(
    get,
    env,
    mask,
    now,
    VisitorsInput,
    VisitorsDefaults,
    MAX_REQUESTS
  )
  return {
    ...report,
    format: formatOf(
      parseChoice(VisitorsInput.Format, value(VisitorsInput.Format), FORMATS),
      report.outputFileShown
    ),
    pageSize: parseInteger(VisitorsInput.PageSize, value(VisitorsInput.PageSize), 1, 250),
    offset: parseInteger(VisitorsInput.Offset, value(VisitorsInput.Offset), 0, 1_000_000_000),
    sortBy: parseChoice(VisitorsInput.SortBy, value(VisitorsInput.SortBy), SORT_KEYS)
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
