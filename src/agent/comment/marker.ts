import { createHash } from 'node:crypto'
import { MAX_LINK } from '../../mintlify/agent-jobs.js'
import { SERVICE_ID } from '../../mintlify/connection.js'
import { RecordSigner, commentSafeJson, findRecords, hideRecord } from '../../records/record.js'

/** What the action records in its comment, hidden in an HTML comment, to find the job again. */
export interface Marker {
  job: string
  run: string
  attempt: number
  /**
   * The step that wrote it (stepIdentity): a re-run resumes its own step's job, never a sibling's
   * (another step of the run, or another leg of a matrix).
   */
  step?: string
  /**
   * 'change': the job was started (or followed up) for a code change, so later changes may be folded
   * into it. Issue runs leave it out: their docs pull request stays about the issue.
   */
  kind?: 'change'
  /** The Mintlify project of the job: follow-ups and folds go only to jobs of the run's own project. */
  project?: string
  /** The job's docs pull request, once known (change runs), as the service reported it. */
  pr?: string
}

const TAG = 'mintlify-agent'

/**
 * The markers of one repository's issues and pull requests, as signed records (record.ts): signed
 * with a key derived from the API key and bound to the issue they stand on (`owner/repo#12`). Other
 * workflows post as the same `github-actions[bot]`, and anyone can type an HTML comment: only a
 * marker this key signed for this issue is read, so a planted, edited or unsigned one, or one copied
 * from another issue, is ignored.
 */
export class Markers {
  private readonly signer: RecordSigner

  constructor(
    apiKey: string,
    /** `owner/repo` */
    private readonly repository: string,
    /** The step writing (stepIdentity): recorded in each marker it writes. */
    readonly step?: string
  ) {
    this.signer = new RecordSigner(apiKey)
  }

  /** The marker as it is hidden in a comment on `issue`. */
  render(marker: Marker, issue: number): string {
    // No `<` or `>` can end the HTML comment early, whatever a link holds; JSON.parse reads them back.
    const json = commentSafeJson(marker)
    return hideRecord(TAG, this.signer.sign(this.place(issue), json), json)
  }

  /** The newest marker in `body` signed for `issue`, its fields checked; anything else is none. */
  read(body: string | undefined | null, issue: number): Marker | undefined {
    if (!body) return undefined
    const place = this.place(issue)
    const signed = findRecords(body, TAG).find(r => this.signer.verify(place, r.json, r.signature))
    return signed ? checkedMarker(signed.json) : undefined
  }

  private place(issue: number): string {
    return `${this.repository}#${issue}`
  }
}

/**
 * Which step of which workflow job wrote a record, and what it asks: the workflow job (GITHUB_JOB)
 * and step (GITHUB_ACTION), and, since a matrix's legs share both, the project and the prompt's
 * source. A digest: the prompt's text does not stand in the comment.
 */
export function stepIdentity(parts: {
  job?: string
  action?: string
  project: string
  promptSource: string
}): string {
  const text = JSON.stringify([
    parts.job ?? '',
    parts.action ?? '',
    parts.project,
    parts.promptSource
  ])
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

/** A signed marker's fields, each checked: one that does not have the expected shape is dropped. */
function checkedMarker(json: string): Marker | undefined {
  let value: Partial<Record<keyof Marker, unknown>>
  try {
    value = JSON.parse(json) as Partial<Record<keyof Marker, unknown>>
  } catch {
    return undefined
  }
  if (typeof value.job !== 'string' || !SERVICE_ID.test(value.job) || typeof value.run !== 'string')
    return undefined
  const marker: Marker = { job: value.job, run: value.run, attempt: Number(value.attempt) || 1 }
  if (typeof value.step === 'string' && /^[0-9a-f]{16}$/.test(value.step)) marker.step = value.step
  if (value.kind === 'change') marker.kind = 'change'
  if (typeof value.project === 'string' && SERVICE_ID.test(value.project))
    marker.project = value.project
  if (typeof value.pr === 'string' && value.pr.length <= MAX_LINK && /^https?:\/\//.test(value.pr))
    marker.pr = value.pr
  return marker
}
