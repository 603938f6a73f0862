/** Breaks `@name` and `#123` so GitHub neither notifies anyone nor links an issue. */
function neutraliseReferences(text: string): string {
  return text.replace(/([@#])(?=[\p{L}\p{N}_-])/gu, '$1\u200B')
}

/**
 * Text from the service, a reader or an issue, made safe to place in a Markdown table cell or
 * line: no formatting, no HTML, no mention, no issue reference.
 */
export function escapeMarkdown(text: string): string {
  // GitHub turns bare `https://…` and `www.…` into links: break them, so outside text links nowhere.
  return escapeLabel(text)
    .replace(/:\/\//g, ':\u200B//')
    .replace(/\bwww\./gi, m => `${m.slice(0, 3)}\u200B.`)
}

/** Escaped as escapeMarkdown, for a link's own text, where GitHub makes no further link. */
function escapeLabel(text: string): string {
  return neutraliseReferences(
    text
      .replace(/[\r\n]+/g, ' ')
      .replace(/&/g, '&amp;')
      .replace(/[\\`*_{}[\]()<>#+!|~]/g, c => `\\${c}`)
  )
}

/** A link target: everything outside the plainest URL characters percent-encoded. */
const linkTarget = (href: string): string =>
  href.replace(/[^A-Za-z0-9\-._~:/?#!$&'+,;=%]/g, c =>
    [...new TextEncoder().encode(c)]
      .map(b => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
      .join('')
  )

/** A link only for http(s) URLs; anything else is shown as escaped text. */
export function markdownLink(label: string, url: string | null | undefined): string {
  if (!url) return ''
  try {
    const parsed = new URL(url)
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') {
      return `[${escapeLabel(label)}](${linkTarget(parsed.href)})`
    }
  } catch {
    // Fall through to plain text.
  }
  return escapeMarkdown(url)
}

/**
 * An inline code span that no backtick in `text` can close early; `inTable: false` for one outside
 * a table, where `\|` would show its backslash.
 */
export function codeSpan(text: string, { inTable = true }: { inTable?: boolean } = {}): string {
  // GitHub ends a table cell at `|` even inside a code span, unless it is escaped.
  const oneLine = text.replace(/[\r\n]+/g, ' ')
  const clean = inTable ? oneLine.replace(/\|/g, '\\|') : oneLine
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${clean}${pad}${fence}`
}
