import { MAX_LINK } from '../../mintlify/agent-jobs.js'
import { SERVICE_ID } from '../../mintlify/connection.js'

/** What the action records in its comment, hidden in an HTML comment, to find the job again. */
export interface Marker {
  job: string
  run: string
  attempt: number
  /**
   * 'change': the job was started (or followed up) for a code change, so later changes may be folded
   * into it. Issue runs leave it out: their docs pull request stays about the issue.
   */
  kind?: 'change'
  /** The Mintlify project of the job (change runs): only jobs of the run's own project are folded into. */
  project?: string
  /** The job's docs pull request, once known (change runs). */
  pr?: string
}

const PREFIX = '<!-- mintlify-agent '
const PATTERN = /<!-- mintlify-agent (\{[^<>]*\}) -->/

export function renderMarker(marker: Marker): string {
  // No `<` or `>` can end the HTML comment early, whatever a link holds; JSON.parse reads them back.
  const json = JSON.stringify(marker).replace(/[<>]/g, c => (c === '<' ? '\\u003c' : '\\u003e'))
  return `${PREFIX}${json} -->`
}

/**
 * Reads a marker; markers written before `kind`, `project` and `pr` existed still parse. A field that
 * does not have the expected shape is dropped, as if it were absent.
 */
export function parseMarker(body: string | undefined | null): Marker | undefined {
  const match = body ? PATTERN.exec(body) : null
  if (!match) return undefined
  try {
    const value = JSON.parse(match[1] as string) as Partial<Record<keyof Marker, unknown>>
    if (
      typeof value.job !== 'string' ||
      !SERVICE_ID.test(value.job) ||
      typeof value.run !== 'string'
    )
      return undefined
    const marker: Marker = { job: value.job, run: value.run, attempt: Number(value.attempt) || 1 }
    if (value.kind === 'change') marker.kind = 'change'
    if (typeof value.project === 'string' && SERVICE_ID.test(value.project))
      marker.project = value.project
    if (
      typeof value.pr === 'string' &&
      value.pr.length <= MAX_LINK &&
      /^https?:\/\//.test(value.pr)
    )
      marker.pr = value.pr
    return marker
  } catch {
    return undefined
  }
}
