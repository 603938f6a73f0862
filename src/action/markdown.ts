/** Text from the service or an issue, made safe to place in a Markdown table cell or line. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]()<>#+!|~]/g, c => `\\${c}`)
    .replace(/&/g, '&amp;')
}

/** A link only for http(s) URLs; anything else is shown as escaped text. */
export function markdownLink(label: string, url: string | null | undefined): string {
  if (!url) return ''
  try {
    const parsed = new URL(url)
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') {
      return `[${escapeMarkdown(label)}](${parsed.href.replace(/[()\s]/g, c => encodeURIComponent(c))})`
    }
  } catch {
    // Fall through to plain text.
  }
  return escapeMarkdown(url)
}

/** An inline code span that no backtick in `text` can close early. */
export function codeSpan(text: string): string {
  // GitHub ends a table cell at `|` even inside a code span, unless it is escaped.
  const clean = text.replace(/[\r\n]+/g, ' ').replace(/\|/g, '\\|')
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${clean}${pad}${fence}`
}
