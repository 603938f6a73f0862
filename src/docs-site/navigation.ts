/**
 * What a Mintlify configuration (`docs.json`, or the legacy `mint.json`) says about pages: the
 * pages its navigation names, the OpenAPI operations it names and the specs they come from, its
 * languages, and the paths it redirects. Read from the docs repository's text: any shape is
 * possible, so the walk is bounded and takes only the fields it knows.
 */

/** Configuration text read at most, and nodes walked: a hostile file cannot hold the run. */
const MAX_CONFIG_CHARS = 10 * 1024 * 1024
const MAX_NODES = 1_000_000
const MAX_DEPTH = 40

/** `GET /users/{id}`, or with its spec first: `openapi.yaml GET /users`. */
const OPERATION = /^(?:(\S+)\s+)?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\s+(\S.*)$/i

export interface Operation {
  /** As the navigation names it: `GET /users`. */
  name: string
  /** The spec it comes from, as the configuration names it (a path in the repository or a URL). */
  spec: string | undefined
}

export interface Navigation {
  /** Page references the navigation names: paths under the docs root without extension. */
  pages: string[]
  operations: Operation[]
  /** Spec files an `openapi` field names, with no operation listed under it: all its operations. */
  wholeSpecs: string[]
  /** The `directory` an `openapi` field sets for its spec's pages, by spec. */
  directories: Record<string, string>
  /** Language codes of `navigation.languages`. */
  languages: string[]
  /** Redirected source paths: no page is served there. */
  redirects: string[]
  /** Whether the text was no JSON object (then it says nothing). */
  unreadable: boolean
}

const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter(s => typeof s === 'string') : []

/** The spec an `openapi` field names: a string, a list of them, or `{ source }`. */
function specsOf(v: unknown): string[] {
  if (v && typeof v === 'object' && !Array.isArray(v))
    return strings((v as { source?: unknown }).source)
  return strings(v)
}

/** The navigation of a configuration's text (`docs.json` or `mint.json`). */
export function readNavigation(text: string | undefined): Navigation {
  const nav: Navigation = {
    pages: [],
    operations: [],
    wholeSpecs: [],
    directories: {},
    languages: [],
    redirects: [],
    unreadable: false
  }
  let config: unknown
  try {
    config = JSON.parse((text ?? '').slice(0, MAX_CONFIG_CHARS))
  } catch {
    config = undefined
  }
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    nav.unreadable = true
    return nav
  }
  const root = config as Record<string, unknown>
  let nodes = 0
  // Strings count only in a `pages` list (or as a group's `root` page); each element's spec is its
  // own `openapi` or an enclosing one's.
  const walk = (
    node: unknown,
    spec: string | undefined,
    inPages: boolean,
    depth: number
  ): number => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return 0
    if (typeof node === 'string') {
      if (!inPages) return 0
      const op = OPERATION.exec(node.trim())
      if (op) nav.operations.push({ name: `${op[2]?.toUpperCase()} ${op[3]}`, spec: op[1] ?? spec })
      else if (node.trim()) nav.pages.push(node.trim().replace(/^\/+/, ''))
      return op ? 1 : 0
    }
    if (Array.isArray(node))
      return node.reduce<number>((n, v) => n + walk(v, spec, inPages, depth + 1), 0)
    if (!node || typeof node !== 'object') return 0
    const element = node as Record<string, unknown>
    const own = specsOf(element.openapi)
    const inner = own[0] ?? spec
    const directory = (element.openapi as { directory?: unknown } | null)?.directory
    if (own[0] && typeof directory === 'string' && directory.trim())
      nav.directories[own[0]] = directory.trim().replace(/^\/+|\/+$/g, '')
    if (Array.isArray(element.languages))
      for (const l of element.languages)
        nav.languages.push(...strings((l as { language?: unknown } | null)?.language))
    let operations = 0
    for (const [key, value] of Object.entries(element)) {
      if (key === 'openapi') continue
      if (key === 'pages' || key === 'root') operations += walk(value, inner, true, depth + 1)
      else if (typeof value === 'object') operations += walk(value, inner, false, depth + 1)
    }
    // An `openapi` element that lists no operation generates them all.
    if (own.length && !operations) nav.wholeSpecs.push(...own)
    return operations
  }
  walk(root.navigation, specsOf(root.openapi)[0], false, 0)
  // mint.json kept its OpenAPI tabs and anchors beside its navigation.
  for (const key of ['tabs', 'anchors']) walk(root[key], undefined, false, 0)
  if (Array.isArray(root.redirects))
    for (const r of root.redirects)
      nav.redirects.push(...strings((r as { source?: unknown } | null)?.source))
  return nav
}
