/**
 * The site paths of OpenAPI operation pages, built as Mintlify documents it: `/{directory}/{tag}/
 * {slug}`, the directory the `openapi` field sets (`api-reference` by default), the operation's
 * first tag, and its summary as a slug (the method and path without parameters when it has none);
 * an operation's `x-mint.href` replaces all three. Read from the spec's text, which may be hostile.
 */

/** Spec text parsed at most: what is read of a file at most (10 MB, raw). */
const MAX_SPEC_CHARS = 10 * 1024 * 1024
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const DEFAULT_DIRECTORY = 'api-reference'

/** A tag or summary made a URL part: spaces to hyphens, `{}(),.'/` out, lower case. */
const urlPart = (text: string): string =>
  text
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[{}(),.'/]/g, '')
    .toLowerCase()

/** `GET /users/{id}/posts` → `get-users-posts`: the slug of an operation with no summary. */
const methodSlug = (method: string, path: string): string =>
  [method, ...path.split('/').filter(p => p && !p.startsWith('{'))].join('-').toLowerCase()

/** An `x-mint.href`: lower case, the last part's extension dropped (`/reference/v1.2` → `/reference/v1`). */
function hrefPath(href: string): string {
  const parts = href.trim().toLowerCase().replace(/^\/+/, '').split('/')
  const last = parts.pop() ?? ''
  const dot = last.lastIndexOf('.')
  return `/${[...parts, dot > 0 ? last.slice(0, dot) : last].join('/')}`
}

/**
 * The spec as an object, JSON or YAML; undefined when it is neither. The YAML parser is loaded only
 * for a YAML spec: it is most of the bytes the bundle would otherwise parse at every start, for
 * what only reader impact of an OpenAPI change needs (ncc puts it in a chunk of its own).
 */
async function readSpec(text: string): Promise<Record<string, unknown> | undefined> {
  const capped = text.slice(0, MAX_SPEC_CHARS)
  try {
    const spec: unknown = capped.trimStart().startsWith('{')
      ? JSON.parse(capped)
      : (await import('yaml')).parse(capped, { maxAliasCount: 100 })
    return spec && typeof spec === 'object' && !Array.isArray(spec)
      ? (spec as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/**
 * The page path of each operation of a spec, by its name as navigation writes it (`GET /users`);
 * `directory` from the `openapi` field. Undefined when the spec cannot be read.
 */
export async function operationPages(
  specText: string,
  directory = DEFAULT_DIRECTORY
): Promise<Map<string, string> | undefined> {
  const spec = await readSpec(specText)
  if (!spec) return undefined
  const paths = spec.paths && typeof spec.paths === 'object' ? spec.paths : {}
  const pages = new Map<string, string>()
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    if (!item || typeof item !== 'object') continue
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method]
      if (!op || typeof op !== 'object') continue
      pages.set(
        operationName(`${method} ${path}`),
        pageOf(op as Record<string, unknown>, method, path, directory)
      )
    }
  }
  return pages
}

/** An operation's name as matched: `GET /users`, one space, the method in capitals. */
export const operationName = (name: string): string => {
  const [method = '', ...path] = name.trim().split(/\s+/)
  return `${method.toUpperCase()} ${path.join(' ')}`
}

function pageOf(
  op: Record<string, unknown>,
  method: string,
  path: string,
  directory: string
): string {
  const href = text((op['x-mint'] as { href?: unknown } | null)?.href)
  if (href) return hrefPath(href)
  const tag = Array.isArray(op.tags) ? text(op.tags[0]) : ''
  const summary = text(op.summary)
  const slug = summary ? urlPart(summary) : methodSlug(method, path)
  return `/${[urlPart(directory), ...(tag ? [urlPart(tag)] : []), slug].join('/')}`
}
