import { distinctiveTerms, mentions } from '../runner/terms.js'
import { cleanReaderText } from './reader-text.js'

/** Of a removed line, this much is looked at: as much as of a reader's gap. */
const MAX_LINE = 500

/** Names a change removed, at most this many: what pages written before it may still say. */
const MAX_REMOVED = 3

/**
 * The distinctive terms on the removed lines of a diff excerpt that no added line names: what the
 * change took away or renamed (`--follow` when `--follow` became `--watch`).
 */
export function removedTerms(diff: string): string[] {
  const lines = diff.split('\n')
  const added = lines.filter(l => l.startsWith('+')).join('\n')
  const removed: string[] = []
  for (const line of lines.filter(l => l.startsWith('-'))) {
    // The diff is outside text, shown in the report and the prompt as reader text is: cleaned like
    // it (no e-mail address, mention or link), and a term that still holds one of their marks is left out.
    for (const term of distinctiveTerms(cleanReaderText(line.slice(1), MAX_LINE))) {
      if (removed.length >= MAX_REMOVED) return removed
      if (/[@[\]]|:\/\//.test(term)) continue
      if (!removed.includes(term) && !mentions(added, term)) removed.push(term)
    }
  }
  return removed
}
