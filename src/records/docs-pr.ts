import { RecordSigner, commentSafeJson, findRecords, hideRecord } from './record.js'

/**
 * Which job a docs pull request belongs to, as the code repository's run hides it in a comment on
 * that pull request (written with `docs-token`): the docs repository's run reads it to send a
 * review there as a follow-up to that job.
 */
export interface DocsPrRecord {
  /** The docs pull request, `owner/repo#N`: the place the record is signed for. */
  pr: string
  job: string
  project: string
}

const TAG = 'mintlify-agent-docs-pr'
const MAX_ID = 200

/** `owner/repo#N`, the name a docs pull request's record is signed for. */
export const docsPrPlace = (where: { owner: string; repo: string; number: number }): string =>
  `${where.owner}/${where.repo}#${where.number}`.toLowerCase()

/**
 * Docs pull request records, signed with a key derived from the API key and bound to the pull
 * request (`owner/repo#N`): one edited, or copied from another pull request, no longer verifies.
 * Who wrote the comment is for the reader to check (the `docs-token` identity).
 */
export class DocsPrRecords {
  private readonly signer: RecordSigner

  constructor(apiKey: string) {
    this.signer = new RecordSigner(apiKey)
  }

  /** The record as it is hidden in the comment. */
  render(record: DocsPrRecord): string {
    const json = commentSafeJson({ pr: record.pr, job: record.job, project: record.project })
    return hideRecord(TAG, this.signer.sign(record.pr, json), json)
  }

  /** The newest record in `body` signed for `place` and naming it, its fields checked; else none. */
  read(body: string, place: string): DocsPrRecord | undefined {
    for (const found of findRecords(body, TAG)) {
      if (!this.signer.verify(place, found.json, found.signature)) continue
      // Signed for this pull request: the JSON names it too, as the writer rendered it.
      const record = checked(found.json)
      if (record) return record
    }
    return undefined
  }
}

function checked(json: string): DocsPrRecord | undefined {
  let value: Partial<Record<keyof DocsPrRecord, unknown>>
  try {
    value = JSON.parse(json) as typeof value
  } catch {
    return undefined
  }
  const { pr, job, project } = value
  if (typeof pr !== 'string' || typeof job !== 'string' || typeof project !== 'string')
    return undefined
  // The ids are the service's: the reader checks their form before sending anything.
  if (job.length > MAX_ID || project.length > MAX_ID) return undefined
  return { pr, job, project }
}
