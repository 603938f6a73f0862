import { type Navigation, type Operation, readNavigation } from './navigation.js'
import { operationName, operationPages } from './openapi-pages.js'
import {
  DOCS_CONFIGS,
  type IgnoreRules,
  findDocsRoot,
  ignoreRules,
  insideRoot,
  samePage,
  sitePath
} from './routing.js'

/**
 * A docs repository as Mintlify serves it: its docs root, configuration, `.mintignore` and files,
 * and the page each file is. Built from one read of the repository's tree and the two or three
 * files that decide (readPlan), so any layout costs the same few requests.
 */
export interface DocsSite {
  /** The folder of the configuration (`''`: the repository's root). */
  root: string
  config: (typeof DOCS_CONFIGS)[number]
  navigation: Navigation
  ignore: IgnoreRules
  /** Why the pages cannot be told, when they cannot: said once, and nothing is measured. */
  unsure?: string
}

/** A file a pull request changed, as GitHub lists it. */
export interface FileChange {
  path: string
  previousPath?: string
  status: string
  additions?: number
  deletions?: number
}

/** A page a pull request changed: read at `before` before the merge and at `path` after it. */
export interface PageChange {
  path: string
  before: string
  /** Renamed with no line changed: the page only moved. */
  moved: boolean
}

/** Pages the navigation must name with no file serving them before the site is said to be elsewhere. */
const MIN_MISSING = 5

/** The files to read beside the tree: the docs root's configuration and `.mintignore`. */
export function readPlan(paths: readonly string[], near: readonly string[]): string[] {
  const found = findDocsRoot(paths, near)
  if (!found) return []
  const at = (name: string) => (found.root ? `${found.root}/${name}` : name)
  return [at(found.config), ...(paths.includes(at('.mintignore')) ? [at('.mintignore')] : [])]
}

/**
 * The site a tree holds (`paths`; `truncated` when GitHub listed only part of it), with the texts
 * readPlan asked for; `unsure` says why its pages cannot be told: no docs root, or a navigation
 * naming many pages no file under the root serves (the site is built from another folder).
 */
export function docsSite(
  tree: { paths: readonly string[]; truncated: boolean },
  texts: ReadonlyMap<string, string>,
  near: readonly string[]
): DocsSite {
  const found = findDocsRoot(tree.paths, near)
  if (!found)
    return {
      root: '',
      config: 'docs.json',
      navigation: readNavigation(undefined),
      ignore: () => false,
      unsure: tree.truncated
        ? 'the repository is too large for GitHub to list in one read, and the part listed holds no docs.json or mint.json'
        : 'the repository holds no docs.json or mint.json'
    }
  const at = (name: string) => (found.root ? `${found.root}/${name}` : name)
  const site: DocsSite = {
    root: found.root,
    config: found.config,
    navigation: readNavigation(texts.get(at(found.config))),
    ignore: ignoreRules(texts.get(at('.mintignore')))
  }
  // Both sides in samePage's form: a site with capitals in its file names is still its own.
  const served = new Set(
    tree.paths.flatMap(p => {
      const path = sitePath(p, site.root, site.ignore)
      return path === undefined ? [] : [samePage(path)]
    })
  )
  const missing = [...new Set(site.navigation.pages.map(p => samePage(p)))].filter(
    p => !served.has(p) && !served.has(samePage(p.replace(/\/index$/, '')))
  )
  if (
    !tree.truncated &&
    missing.length >= MIN_MISSING &&
    missing.length * 2 > site.navigation.pages.length
  )
    site.unsure = `the navigation of ${at(found.config)} names ${missing.length} pages no file under ${found.root || 'the repository root'} serves: the site seems built from another folder`
  return site
}

/** The site path a file is served at, or undefined when it is no page (a redirect's source is none). */
export function pageOf(site: DocsSite, file: string): string | undefined {
  const path = sitePath(file, site.root, site.ignore)
  if (path === undefined) return undefined
  const redirected = site.navigation.redirects.some(r => samePage(r) === samePage(path))
  return redirected ? undefined : path
}

/**
 * The pages a pull request changed, each once, and the OpenAPI operations whose spec it changed:
 * a removed file is no page any more; a renamed one is read at its old path before the merge.
 */
export function changedPages(
  site: DocsSite,
  files: readonly FileChange[]
): { pages: PageChange[]; operations: Operation[]; wholeSpecs: string[] } {
  const pages = new Map<string, PageChange>()
  const changed = new Set<string>()
  for (const file of files) {
    changed.add(insideRoot(file.path, site.root) ?? '')
    if (file.previousPath) changed.add(insideRoot(file.previousPath, site.root) ?? '')
    if (file.status === 'removed') continue
    const path = pageOf(site, file.path)
    if (!path || pages.has(path)) continue
    // Before the merge, without the redirects: a redirect from the old path (as Mintlify recommends
    // for a rename) describes the site after it.
    const old = file.previousPath ? sitePath(file.previousPath, site.root, site.ignore) : undefined
    const renamed = file.status === 'renamed' && old !== undefined && old !== path
    pages.set(path, {
      path,
      before: renamed ? old : path,
      moved: renamed && !file.additions && !file.deletions
    })
  }
  const spec = (s: string | undefined) => s !== undefined && changed.has(s.replace(/^\.?\/+/, ''))
  return {
    pages: [...pages.values()].sort((a, b) => a.path.localeCompare(b.path)),
    operations: site.navigation.operations.filter(op => spec(op.spec)),
    wholeSpecs: site.navigation.wholeSpecs.filter(spec)
  }
}

/** Specs read at most for one pull request: each is one more request. */
const MAX_SPECS = 2

/** A spec as the configuration names it, as a path in the repository; undefined for a URL. */
function specFile(site: DocsSite, spec: string): string | undefined {
  if (/^[a-z]+:\/\//i.test(spec)) return undefined
  const inner = spec.replace(/^\.?\/+/, '')
  return site.root ? `${site.root}/${inner}` : inner
}

/** The spec files to read for the operations and whole specs a pull request changed. */
export function specsToRead(
  site: DocsSite,
  changed: { operations: readonly Operation[]; wholeSpecs: readonly string[] }
): string[] {
  const specs = [...changed.operations.map(op => op.spec ?? ''), ...changed.wholeSpecs]
  const files = specs.map(s => (s ? specFile(site, s) : undefined))
  return [...new Set(files.filter(f => f !== undefined))].slice(0, MAX_SPECS)
}

/**
 * The operation pages a spec change maps to, from the specs' texts (by repository path): those the
 * navigation names, or every operation of a spec it generates whole. What cannot be read (a spec
 * by URL, past MAX_SPECS, not JSON or YAML) stays in `operations` and `wholeSpecs`, unmeasured.
 */
export async function specPages(
  site: DocsSite,
  changed: { operations: readonly Operation[]; wholeSpecs: readonly string[] },
  texts: ReadonlyMap<string, string>
): Promise<{ pages: PageChange[]; operations: Operation[]; wholeSpecs: string[] }> {
  const pages = new Set<string>()
  // Each spec parsed once, however many of its operations the navigation names.
  const read = new Map<string, Map<string, string> | undefined>()
  const specs = [...changed.operations.flatMap(op => op.spec ?? []), ...changed.wholeSpecs]
  for (const spec of new Set(specs)) {
    const file = specFile(site, spec)
    const text = file === undefined ? undefined : texts.get(file)
    read.set(
      spec,
      text === undefined ? undefined : await operationPages(text, site.navigation.directories[spec])
    )
  }
  // A named operation the spec does not hold (or a spec not read) stays named, unmeasured.
  const operations = changed.operations.filter(op => {
    const page = op.spec === undefined ? undefined : read.get(op.spec)?.get(operationName(op.name))
    if (page) pages.add(page)
    return !page
  })
  const wholeSpecs = changed.wholeSpecs.filter(spec => {
    const all = read.get(spec)
    for (const page of all?.values() ?? []) pages.add(page)
    return !all?.size
  })
  return {
    pages: [...pages].sort().map(path => ({ path, before: path, moved: false })),
    operations,
    wholeSpecs
  }
}
