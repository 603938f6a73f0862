import type { ChangeRef } from '../records/ledger.js'
import { distinctiveTerms } from '../runner/terms.js'

/** A handful of terms is what readers type; more would match anything. */
const MAX_TERMS = 5
const MAX_TERM_CHARS = 40

/**
 * The distinctive terms of the changes a docs pull request documents, from their titles (as the
 * ledger keeps them), as the gaps sub-action finds them in readers' text: at most MAX_TERMS, lower
 * case. Titles are outside text: a term keeps only letters, digits and `-`, `_`, `.`.
 */
export function termsOf(changes: readonly Pick<ChangeRef, 'title'>[]): string[] {
  const terms = new Set<string>()
  for (const { title } of changes) {
    for (const raw of distinctiveTerms(title)) {
      const term = raw.trim().toLowerCase()
      if (term.length >= 3 && term.length <= MAX_TERM_CHARS && /^[\w.-]+$/.test(term))
        terms.add(term)
    }
  }
  return [...terms].slice(0, MAX_TERMS)
}

/** Whether a reader's search or question is about `term`: the term as a word, its dashes optional. */
export function mentions(text: string, term: string): boolean {
  const word = term.replace(/^-+/, '')
  if (!word) return false
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[^\\w-])(-{0,2})${escaped}($|[^\\w-])`, 'i').test(text)
}
