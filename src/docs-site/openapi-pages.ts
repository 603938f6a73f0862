import type { PagePlace } from './navigation.js'

/**
 * OpenAPI specs as Mintlify builds pages from them (its endpoint URL page): the site path of each
 * generated operation page is `/{directory}/{tag}/{slug}`, the directory the `openapi` element sets
 * (`api-reference` by default, its slashes kept: `ko/api-reference/v2`), the operation's first tag,
 * and its summary as a slug (the method and path without parameters when it has none), or with
 * `slug: "operationId"` its operation ID in kebab case; an operation's `x-mint.href` replaces all
 * three. Which operations a spec holds also decides which spec a page's `openapi: "METHOD /path"`
 * frontmatter renders. Read from the spec's text, which may be hostile.
 */

/** Spec text parsed at most: what is read of a file at most. */
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

/** An operation of a spec, as much of it as decides its page. */
interface SpecOperation {
  method: string
  path: string
  tag: string
  summary: string
  operationId: string
  href: string
}

/**
 * An operation ID whose kebab case Mintlify documents: letters, digits, `_` and `-`, no digit
 * beside a letter and no two capitals in a row (`getActions` → `get-actions`, `create_action` →
 * `create-action`). How it splits `getHTTPStatus`, `listUsersV2` or `invoices.list` it does not say.
 */
const documentedId = (id: string): boolean =>
  /^[A-Za-z0-9_-]+$/.test(id) && !/[0-9][A-Za-z]|[A-Za-z][0-9]|[A-Z]{2}/.test(id)

/** An operation ID in kebab case: a hyphen before each capital after a small letter, `_` to `-`. */
const idSlug = (id: string): string =>
  id
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .split(/[_-]+/)
    .filter(Boolean)
    .join('-')
    .toLowerCase()

/** A spec read: its operations (and webhooks) by the name navigation and frontmatter write. */
export interface OpenApiSpec {
  operations: ReadonlyMap<string, SpecOperation | undefined>
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/**
 * The spec's text as an OpenAPI document (an object with an `openapi` or `swagger` version),
 * JSON or YAML; undefined when it is none. The YAML parser is loaded only for a YAML spec: it is
 * most of the bytes the bundle would otherwise parse at every start, for what only an OpenAPI
 * change needs (ncc puts it in a chunk of its own).
 */
export async function readSpec(specText: string): Promise<OpenApiSpec | undefined> {
  const capped = specText.slice(0, MAX_SPEC_CHARS)
  let spec: unknown
  try {
    spec = capped.trimStart().startsWith('{')
      ? JSON.parse(capped)
      : (await import('yaml')).parse(capped, { maxAliasCount: 100 })
  } catch {
    return undefined
  }
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return undefined
  const doc = spec as Record<string, unknown>
  if (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string') return undefined
  const operations = new Map<string, SpecOperation | undefined>()
  const paths = doc.paths && typeof doc.paths === 'object' ? doc.paths : {}
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    if (!item || typeof item !== 'object') continue
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method] as Record<string, unknown> | undefined
      if (!op || typeof op !== 'object') continue
      operations.set(operationName(`${method} ${path}`), {
        method,
        path,
        tag: Array.isArray(op.tags) ? text(op.tags[0]) : '',
        summary: text(op.summary),
        operationId: text(op.operationId).trim(),
        href: text((op['x-mint'] as { href?: unknown } | null)?.href)
      })
    }
  }
  // OpenAPI 3.1 webhooks: a page renders one by name (`webhook orderUpdated`); where Mintlify
  // generates their pages is not documented, so they have none here.
  const webhooks = doc.webhooks && typeof doc.webhooks === 'object' ? doc.webhooks : {}
  for (const name of Object.keys(webhooks as Record<string, unknown>))
    operations.set(operationName(`webhook ${name}`), undefined)
  return { operations }
}

/** An operation's name as matched: `GET /users`, one space, the method in capitals. */
export const operationName = (name: string): string => {
  const [method = '', ...path] = name.trim().split(/\s+/)
  return `${method.toUpperCase()} ${path.join(' ')}`
}

/** Whether the spec holds the operation (or webhook) `name`. */
export const holds = (spec: OpenApiSpec, name: string): boolean =>
  spec.operations.has(operationName(name))

/** A directory as a site path's first parts: each part a URL part, the slashes kept. */
const directoryParts = (directory: string): string[] =>
  directory
    .split('/')
    .map(urlPart)
    .filter(p => p && p !== '.' && p !== '..')

/**
 * Where a generated operation page is: its site path, or, named after an operation ID whose kebab
 * case Mintlify does not document, that ID (the page cannot be told).
 */
export type OperationPage = { path: string } | { undocumentedId: string }

/**
 * The generated page of the operation `name` in `place` (an `openapi` field's directory and slug);
 * undefined when the spec lacks it.
 */
export function operationPage(
  spec: OpenApiSpec,
  name: string,
  { directory = DEFAULT_DIRECTORY, slug: slugBy }: PagePlace = {}
): OperationPage | undefined {
  const op = spec.operations.get(operationName(name))
  if (!op) return undefined
  if (op.href) return { path: hrefPath(op.href) }
  const byId = slugBy === 'operationId' && op.operationId ? op.operationId : undefined
  if (byId !== undefined && !documentedId(byId)) return { undocumentedId: byId }
  // An ID with no letter or digit slugs to nothing: its summary then, as with no ID.
  const slug =
    (byId && idSlug(byId)) || (op.summary ? urlPart(op.summary) : methodSlug(op.method, op.path))
  const parts = [...directoryParts(directory), ...(op.tag ? [urlPart(op.tag)] : []), slug]
  return { path: `/${parts.join('/')}` }
}

/** Every generated operation page of the spec in `place`. */
export function operationPages(spec: OpenApiSpec, place?: PagePlace): OperationPage[] {
  return [...spec.operations.keys()].flatMap(name => operationPage(spec, name, place) ?? [])
}
