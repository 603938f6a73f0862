/**
 * What a Mintlify configuration (`docs.json`, or the legacy `mint.json`) says about pages: the
 * pages its navigation names, the OpenAPI operations it names with the spec, `directory` and `slug`
 * of the element they sit in, the specs an element generates whole, its languages, and the paths it
 * redirects. Read from the docs repository's configuration (its `$ref`s already followed, config.ts):
 * any shape is possible, so the walk is bounded and takes only the fields it knows.
 */

/** Values walked at most, and how deep: a hostile file cannot hold the run. */
const MAX_NODES = 1_000_000
const MAX_DEPTH = 60
/** Configuration text parsed at most by readNavigation. */
const MAX_CONFIG_CHARS = 10 * 1024 * 1024

/** `GET /users/{id}`, or with its spec first: `openapi.yaml GET /users`; a webhook by its name. */
export const OPERATION =
  /^(?:(\S+)\s+)?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\s+(\S.*)$/i

/**
 * Where an `openapi` field puts the pages it generates, as it sets them: its `directory`
 * (`api-reference` when it sets none), and `slug: "operationId"` to name them after operation IDs
 * instead of summaries (Mintlify's endpoint URL page).
 */
export interface PagePlace {
  directory?: string
  slug?: 'operationId'
}

export interface Operation extends PagePlace {
  /** As the navigation names it: `GET /users`. */
  name: string
  /** The spec it comes from, as the configuration names it (a path in the repository or a URL). */
  spec: string | undefined
}

/**
 * An `openapi` element that lists no operation: it generates every operation of its spec, in its
 * own place.
 */
export interface GeneratedSpec extends PagePlace {
  spec: string
}

export interface Navigation {
  /** Page references the navigation names: paths under the docs root without extension. */
  pages: string[]
  operations: Operation[]
  /** Elements that generate every operation of their spec, each with its own directory. */
  generated: GeneratedSpec[]
  /** Pages named inside an element that has (or inherits) an `openapi` spec. */
  openapiPages: string[]
  /** Every spec an `openapi` field names. */
  specs: string[]
  /** Language codes of `navigation.languages`. */
  languages: string[]
  /** Redirected source paths: no page is served there. */
  redirects: string[]
  /** Whether the configuration was no JSON object (then it says nothing). */
  unreadable: boolean
  /** Whether the walk stopped at its bound, leaving part of the navigation unread. */
  stopped: boolean
}

const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter(s => typeof s === 'string') : []

/**
 * The specs an `openapi` field names, and where it puts their pages: a string, a list, or
 * `{ source, directory, slug }`.
 */
function openapiOf(v: unknown): { specs: string[]; place: PagePlace } {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const { source, directory, slug } = v as {
      source?: unknown
      directory?: unknown
      slug?: unknown
    }
    const dir = typeof directory === 'string' ? directory.trim().replace(/^\/+|\/+$/g, '') : ''
    const byId = typeof slug === 'string' && slug.trim().toLowerCase() === 'operationid'
    return {
      specs: strings(source),
      place: { ...(dir ? { directory: dir } : {}), ...(byId ? { slug: 'operationId' } : {}) }
    }
  }
  return { specs: strings(v), place: {} }
}

/** The navigation of a configuration's text (`docs.json` or `mint.json`), with no `$ref` followed. */
export function readNavigation(text: string | undefined): Navigation {
  let config: unknown
  try {
    config = JSON.parse((text ?? '').slice(0, MAX_CONFIG_CHARS))
  } catch {
    config = undefined
  }
  return navigationOf(config)
}

/** The spec an element's operations come from, and the place of its pages that goes with it. */
interface Api extends PagePlace {
  spec: string
}

/** The place an operation takes from its element: its directory and slug, when set. */
const placeOf = (api: Api | undefined): PagePlace => ({
  ...(api?.directory ? { directory: api.directory } : {}),
  ...(api?.slug ? { slug: api.slug } : {})
})

/** The navigation of a configuration's value (its refs followed). */
export function navigationOf(config: unknown): Navigation {
  const nav: Navigation = {
    pages: [],
    operations: [],
    generated: [],
    openapiPages: [],
    specs: [],
    languages: [],
    redirects: [],
    unreadable: false,
    stopped: false
  }
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    nav.unreadable = true
    return nav
  }
  const root = config as Record<string, unknown>
  let nodes = 0
  // Strings count only in a `pages` list (or as a group's `root` page); each element's spec is its
  // own `openapi` or an enclosing one's, its directory and slug with it.
  const walk = (node: unknown, api: Api | undefined, inPages: boolean, depth: number): number => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) {
      nav.stopped = true
      return 0
    }
    if (typeof node === 'string') {
      if (!inPages) return 0
      const op = OPERATION.exec(node.trim())
      if (op) {
        // An operation naming its own spec takes no element's directory or slug.
        nav.operations.push({
          name: `${op[2]?.toUpperCase()} ${op[3]}`,
          spec: op[1] ?? api?.spec,
          ...(op[1] ? {} : placeOf(api))
        })
        if (op[1]) nav.specs.push(op[1])
        return 1
      }
      const page = node.trim().replace(/^\/+/, '')
      if (page) {
        nav.pages.push(page)
        if (api) nav.openapiPages.push(page)
      }
      return 0
    }
    if (Array.isArray(node))
      return node.reduce<number>((n, v) => n + walk(v, api, inPages, depth + 1), 0)
    if (!node || typeof node !== 'object') return 0
    const element = node as Record<string, unknown>
    const own = openapiOf(element.openapi)
    nav.specs.push(...own.specs)
    const inner: Api | undefined = own.specs[0] ? { spec: own.specs[0], ...own.place } : api
    if (Array.isArray(element.languages))
      for (const l of element.languages)
        nav.languages.push(...strings((l as { language?: unknown } | null)?.language))
    let operations = 0
    for (const [key, value] of Object.entries(element)) {
      if (key === 'openapi') continue
      if (key === 'pages' || key === 'root') operations += walk(value, inner, true, depth + 1)
      else if (typeof value === 'object') operations += walk(value, inner, false, depth + 1)
    }
    // An `openapi` element that lists no operation (its children neither) generates them all,
    // in its own place.
    if (own.specs.length && !operations)
      for (const spec of own.specs) nav.generated.push({ spec, ...own.place })
    return operations
  }
  const top = openapiOf(root.openapi)
  nav.specs.push(...top.specs)
  walk(root.navigation, top.specs[0] ? { spec: top.specs[0], ...top.place } : undefined, false, 0)
  // mint.json kept its OpenAPI tabs and anchors beside its navigation.
  for (const key of ['tabs', 'anchors']) walk(root[key], undefined, false, 0)
  if (Array.isArray(root.redirects))
    for (const r of root.redirects)
      nav.redirects.push(...strings((r as { source?: unknown } | null)?.source))
  nav.specs = [...new Set(nav.specs)]
  return nav
}
