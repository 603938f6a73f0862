import type { ChangeRef } from '../../records/ledger.js'

/** A handful of terms is what readers type; more would match anything. */
const MAX_TERMS = 5
const MAX_TERM_CHARS = 40

/** `code`, a `--flag`, or an identifier with `_`, `.` or an inner capital: the words a rename changes. */
const CODE_SPAN = /`([^`\n]{2,60})`/g
const TOKEN = /(?:^|[\s(])(--?[A-Za-z][\w-]+|[A-Za-z]\w*(?:[._]\w+)+|[a-z]+[A-Z]\w*)(?=$|[\s),:;])/g

/**
 * The distinctive terms of the changes a docs pull request documents, from their titles (as the
 * ledger keeps them): code spans, flags and identifiers, at most MAX_TERMS, lower case. Titles are
 * outside text: a term keeps only letters, digits and `-`, `_`, `.`.
 */
export function termsOf(changes: readonly Pick<ChangeRef, 'title'>[]): string[] {
  const terms = new Set<string>()
  for (const { title } of changes) {
    const found = [
      ...[...title.matchAll(CODE_SPAN)].map(m => m[1] ?? ''),
      ...[...title.matchAll(TOKEN)].map(m => m[1] ?? '')
    ]
    for (const raw of found) {
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
