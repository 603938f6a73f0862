import { OPERATION } from './navigation.js'
import { operationName } from './openapi-pages.js'

/**
 * The OpenAPI operation a page renders, from its frontmatter, as Mintlify's OpenAPI set-up page
 * documents it: `openapi: "/path/to/openapi.json GET /users"` (the spec named, a path from the docs
 * root or a URL) or `openapi: "GET /users"` (none named: Mintlify takes the first spec in
 * alphabetical order that holds it), `webhook name` for a webhook. Read from the page's first lines,
 * which are the docs repository's text: a top-level `openapi:` key of the block between the first
 * two `---` lines, quoted or not.
 */

/** Lines of a frontmatter read at most. */
const MAX_LINES = 200
/** An `openapi:` value longer than this is no operation anyone wrote. */
const MAX_VALUE = 2_000

export interface PageOperation {
  /** The spec as the page names it, without its leading `./` or `/`; undefined when none is named. */
  spec?: string
  /** `GET /users`, as operationName writes it. */
  name: string
}

/** The operation a page's text renders, or undefined when its frontmatter names none. */
export function frontmatterOperation(page: string): PageOperation | undefined {
  const lines = page.replace(/^\uFEFF/, '').split(/\r?\n/, MAX_LINES + 1)
  if (lines[0]?.trim() !== '---') return undefined
  for (const line of lines.slice(1)) {
    if (line.trim() === '---') return undefined
    const m = /^openapi\s*:\s*(.*)$/.exec(line)
    if (m) return operationOf(scalar(m[1] ?? ''))
  }
  return undefined
}

/** A YAML scalar on one line: quotes taken off, an unquoted value's `# comment` dropped. */
function scalar(raw: string): string {
  const value = raw.trim()
  const quoted = /^(["'])(.*)\1\s*(?:#.*)?$/.exec(value)
  if (quoted) return quoted[2] ?? ''
  return value.replace(/\s+#.*$/, '')
}

function operationOf(value: string): PageOperation | undefined {
  if (!value || value.length > MAX_VALUE) return undefined
  const op = OPERATION.exec(value.trim())
  if (!op) return undefined
  const name = operationName(`${op[2]} ${op[3]}`)
  const spec = op[1]?.replace(/^\.?\/+/, '')
  return spec ? { spec, name } : { name }
}
