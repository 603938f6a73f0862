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
