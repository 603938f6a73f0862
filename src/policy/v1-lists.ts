/**
 * v1's list inputs as a workflow still writes them, for the migration to the policy file's real
 * YAML lists: one item a line or a comma, blank lines and `#` comments skipped. A comma inside
 * `{…}` no longer splits, so `src/{api,cli}/**` is one glob (v1 refused it as 'src/{api').
 */
export function v1List(raw: string): string[] {
  const items: string[] = []
  let item = ''
  let depth = 0
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string
    if (ch === '\\' && i + 1 < raw.length) {
      item += ch + raw[++i]
      continue
    }
    if (ch === '\n' || ch === '\r' || (ch === ',' && depth === 0)) {
      items.push(item)
      item = ''
      depth = 0
      continue
    }
    if (ch === '{') depth++
    else if (ch === '}' && depth > 0) depth--
    item += ch
  }
  items.push(item)
  return items.map(line => line.trim()).filter(line => line && !line.startsWith('#'))
}

/** One line of v1's `code-repositories`: `owner/repo`, optionally `: ` and its globs. */
export interface V1CodeRepository {
  /** The line as written, for messages. */
  line: string
  /** `owner/repo` as written, not checked yet. */
  name: string
  /** The globs after the `:`; undefined without one, empty after a `:` with nothing behind it. */
  paths?: string[]
}

/** v1's `code-repositories`: one repository a line, with its own globs after a colon. */
export function v1CodeRepositories(raw: string): V1CodeRepository[] {
  return raw
    .split(/\r?\n/)
    .map(line => line.trim())
    .filter(line => line && !line.startsWith('#'))
    .map(line => {
      const at = line.indexOf(':')
      if (at < 0) return { line, name: line }
      return { line, name: line.slice(0, at).trim(), paths: v1List(line.slice(at + 1)) }
    })
}
