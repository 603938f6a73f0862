import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Records the action hides in what it writes on GitHub (a comment's marker, the dashboard's state),
 * signed with a key derived from the API key and bound to where they stand. Anyone can write an
 * HTML comment, and other workflows post as the same bot; only a holder of the project's API key can
 * write a record this action believes, and a record copied to another issue no longer verifies.
 */
export class RecordSigner {
  private readonly key: Buffer

  constructor(apiKey: string) {
    // A derived key: the API key itself never meets the record's text.
    this.key = createHmac('sha256', apiKey).update('mintlify-agent-action record key v1').digest()
  }

  /** The signature of `json`, written at `place` (e.g. `acme/app#12`, `acme/app dashboard`). */
  sign(place: string, json: string): string {
    return createHmac('sha256', this.key).update(`${place}\n${json}`).digest('hex').slice(0, 40)
  }

  verify(place: string, json: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(place, json))
    const given = Buffer.from(signature)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
}

/** JSON that cannot end the HTML comment it stands in, whatever its strings hold. */
export const commentSafeJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[<>&]/g,
    c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  )

/** `<!-- tag sig=… {json} -->`: a signed record, invisible in the rendered page. */
export function hideRecord(tag: string, signature: string, json: string): string {
  return `<!-- ${tag} sig=${signature} ${json} -->`
}

/** The records with this tag in `text`, newest (last) first: their signature and JSON, unchecked. */
export function findRecords(text: string, tag: string): { signature: string; json: string }[] {
  const pattern = new RegExp(`<!-- ${tag} sig=([0-9a-f]{40}) (\\{[^<>]*\\}) -->`, 'g')
  return [...text.matchAll(pattern)]
    .map(m => ({ signature: m[1] as string, json: m[2] as string }))
    .reverse()
}
