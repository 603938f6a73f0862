import { resolveConfig } from './config.js'
import { type RootSetting, chooseRoot, type Verdict } from './docs-root.js'
import { type GeneratedSpec, type Navigation, type Operation, navigationOf } from './navigation.js'
import type { FileRead } from './repository.js'
import {
  type DocsConfig,
  type IgnoreRules,
  at,
  ignoreRules,
  ignoredByDefault,
  insideRoot,
  samePage,
  sitePath
} from './routing.js'

/**
 * A docs repository as Mintlify serves it: its docs root, configuration (its `$ref`s followed),
 * `.mintignore` and files, and the page each file is. Built from one read of the repository's tree
 * and the few files that decide (`need`: the configuration, its refs, `.mintignore`; the configuration
 * of another folder when the root must be chosen), so any layout costs a few requests.
 */
export interface DocsSite {
  /** The folder Mintlify deploys (`''`: the repository's root). */
  root: string
  config: DocsConfig
  navigation: Navigation
  ignore: IgnoreRules
  /** Why the pages cannot be told, when they cannot: said once, and nothing is measured. */
  unsure?: string
  /** What the mapping could not follow or chose (a `$ref` not followed, the folder taken), said. */
  notes: string[]
  /** The repository's files (the tree read). */
  files: readonly string[]
  /** The configuration and the files its refs brought in: no spec, no page. */
  configFiles: readonly string[]
  /**
   * The navigation names this many pages no file under the root serves (a build step makes them):
   * a changed page it does not name is unsure. Undefined when it names few.
   */
  builtElsewhere?: { missing: number }
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

/** Options of the mapping's entry points: what the run knows of the docs root (docs-root.ts). */
export type SiteOptions = RootSetting

/** Pages the navigation must name with no file serving them before the site is said to be elsewhere. */
const MIN_MISSING = 5

/** The pages the navigation names that no file of `paths` under `root` serves. */
function missingPages(
  paths: readonly string[],
  root: string,
  ignore: IgnoreRules,
  navigation: Navigation
): string[] {
  // Both sides in samePage's form: a site with capitals in its file names is still its own.
  const served = new Set(
    paths.flatMap(p => {
      const path = sitePath(p, root, ignore)
      return path === undefined ? [] : [samePage(path)]
    })
  )
  return [...new Set(navigation.pages.map(p => samePage(p)))].filter(
    p => !served.has(p) && !served.has(samePage(p.replace(/\/index$/, '')))
  )
}

const inFolder = (root: string): string => root || 'the repository root'

/** Why the pages of `navigation` are not those of `root`: most of what it names is not there. */
function contradiction(
  file: string,
  root: string,
  missing: readonly string[],
  navigation: Navigation
): string | undefined {
  if (missing.length < MIN_MISSING || missing.length * 2 <= navigation.pages.length)
    return undefined
  return `the navigation of ${file} names ${missing.length} pages no file under ${inFolder(root)} serves`
}

/** The site and the files still to read to build it better (none: it is final). */
export function buildSite(
  tree: { paths: readonly string[]; truncated: boolean },
  reads: ReadonlyMap<string, FileRead>,
  near: readonly string[],
  options: SiteOptions = {}
): { site: DocsSite; need: string[] } {
  const need: string[] = []
  const judge = (root: string, config: DocsConfig): Verdict => {
    const file = at(root, config)
    const resolved = resolveConfig(file, root, reads)
    if (resolved.pending.length) {
      need.push(...resolved.pending)
      return 'unread'
    }
    if (resolved.unreadable) return { fits: false, why: resolved.unreadable }
    const navigation = navigationOf(resolved.value)
    if (navigation.unreadable) return { fits: false, why: `${file} is no JSON object` }
    const why = contradiction(
      file,
      root,
      missingPages(tree.paths, root, () => false, navigation),
      navigation
    )
    return why ? { fits: false, why } : { fits: true }
  }
  const decision = chooseRoot(tree, near, options, judge)
  const base = { files: tree.paths, configFiles: [], notes: [] }
  if ('need' in decision || 'unsure' in decision) {
    const unsure = 'unsure' in decision ? decision.unsure : 'its configuration could not be read'
    return {
      site: {
        ...base,
        root: '',
        config: 'docs.json',
        navigation: navigationOf(undefined),
        ignore: () => false,
        unsure
      },
      need
    }
  }
  const { root, config } = decision
  const file = at(root, config)
  const resolved = resolveConfig(file, root, reads)
  need.push(...resolved.pending)
  const mintignore = at(root, '.mintignore')
  const ignoreRead = tree.paths.includes(mintignore) ? reads.get(mintignore) : ''
  if (ignoreRead === undefined) need.push(mintignore)
  const navigation = navigationOf(resolved.value)
  const site: DocsSite = {
    ...base,
    root,
    config,
    navigation,
    ignore: ignoreRules(typeof ignoreRead === 'string' ? ignoreRead : undefined),
    notes: [...(decision.note ? [decision.note] : []), ...resolved.notes],
    configFiles: resolved.files
  }
  if (resolved.unreadable)
    site.notes.push(
      `${resolved.unreadable}: its navigation, redirects and OpenAPI pages are not known.`
    )
  if (navigation.stopped)
    site.notes.push(
      `The navigation of ${file} is larger than is read: what it names past that is not known.`
    )
  const missing = missingPages(tree.paths, root, site.ignore, navigation)
  const contradicted = tree.truncated ? undefined : contradiction(file, root, missing, navigation)
  if (contradicted) site.unsure = `${contradicted}: the site seems built from another folder`
  else if (!tree.truncated && missing.length >= MIN_MISSING)
    site.builtElsewhere = { missing: missing.length }
  return { site, need }
}

/**
 * The site a tree holds, from the files read (`reads`, by repository path; a file not there is
 * taken as not read); `near` the changed files, for choosing the root.
 */
export function docsSite(
  tree: { paths: readonly string[]; truncated: boolean },
  reads: ReadonlyMap<string, FileRead>,
  near: readonly string[],
  options: SiteOptions = {}
): DocsSite {
  return buildSite(tree, reads, near, options).site
}

/** Why the pages of `files`, which a site partly built elsewhere does not name, are unsure. */
export function unnamedPages(site: DocsSite, files: readonly string[]): string {
  const shown = files.slice(0, 3).map(f => (f.length > 120 ? `${f.slice(0, 120)}…` : f))
  const more = files.length > 3 ? ` and ${files.length - 3} more` : ''
  return `${shown.join(', ')}${more}: the navigation does not name ${files.length === 1 ? 'its page' : 'their pages'}, and it names ${site.builtElsewhere?.missing ?? 0} pages no file under ${inFolder(site.root)} serves: the site seems built partly from another folder`
}

/**
 * What a file is on the site: the page it is served at; `unsure` when the site is partly built
 * elsewhere and its navigation does not name that page; undefined when it is no page (a redirect's
 * source is none).
 */
export function servedAs(site: DocsSite, file: string): { page: string } | 'unsure' | undefined {
  const path = sitePath(file, site.root, site.ignore)
  if (path === undefined) return undefined
  const key = samePage(path)
  const { redirected, named } = indexOf(site)
  if (redirected.has(key)) return undefined
  if (site.builtElsewhere && !named.has(key)) return 'unsure'
  return { page: path }
}

/** A site's redirect sources and named pages in samePage's form, built once: sites name thousands. */
const indexes = new WeakMap<DocsSite, { redirected: Set<string>; named: Set<string> }>()
function indexOf(site: DocsSite): { redirected: Set<string>; named: Set<string> } {
  let index = indexes.get(site)
  if (!index) {
    index = {
      redirected: new Set(site.navigation.redirects.map(samePage)),
      named: new Set(
        site.navigation.pages.flatMap(p => [samePage(p), samePage(p.replace(/\/index$/, ''))])
      )
    }
    indexes.set(site, index)
  }
  return index
}

/** The site path a file is served at, or undefined when it is no page or its page is unsure. */
export function pageOf(site: DocsSite, file: string): string | undefined {
  const served = servedAs(site, file)
  return typeof served === 'object' ? served.page : undefined
}

/** A spec as the configuration or a page names it, as a path in the repository; undefined for a URL. */
export function specFile(site: DocsSite, spec: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) return undefined
  const inner = spec.trim().replace(/^\.?\/+/, '')
  if (!inner || inner.split('/').some(p => p === '..')) return undefined
  return at(site.root, inner)
}

/** Files that are no OpenAPI spec whatever they hold: a package manager's, a compiler's, a dotfile. */
const NOT_SPECS =
  /(?:^|\/)(?:package(?:-lock)?\.json|pnpm-(?:lock|workspace)\.yaml|tsconfig[^/]*\.json|\.[^/]*)$/i
const SPEC_LIKE = /\.(?:json|ya?ml)$/i

/**
 * Whether a file of the site may be an OpenAPI spec Mintlify uploads: JSON or YAML under the docs
 * root, served (not ignored), and neither the configuration nor a file of its refs.
 */
export function maybeSpec(site: DocsSite, file: string): boolean {
  const relative = insideRoot(file, site.root)
  if (relative === undefined || !maybeSpecPath(relative)) return false
  if (site.configFiles.includes(file) || relative === 'docs.json' || relative === 'mint.json')
    return false
  return !site.ignore(relative)
}

/** Whether a path may be an OpenAPI spec by its name alone: JSON or YAML, not ignored, no package's. */
export const maybeSpecPath = (path: string): boolean =>
  SPEC_LIKE.test(path) && !NOT_SPECS.test(path) && !ignoredByDefault(path)

/** What a pull request changed on the site, before any spec is read. */
export interface ChangedFiles {
  /** Pages whose own file changed, each once. */
  pages: PageChange[]
  /** Files whose page is unsure (a site built partly elsewhere): nothing is measured for them. */
  unsure: string[]
  /** Navigation operations whose spec it changed. */
  operations: Operation[]
  /** Elements generating every operation of a spec it changed. */
  generated: GeneratedSpec[]
  /** Changed files that may be OpenAPI specs (repository paths), those the navigation names first. */
  specs: string[]
}

/**
 * The pages a pull request changed, each once, and what of its OpenAPI it changed: a removed file is
 * no page any more; a renamed one is read at its old path before the merge.
 */
export function changedPages(site: DocsSite, files: readonly FileChange[]): ChangedFiles {
  const pages = new Map<string, PageChange>()
  const unsure = new Set<string>()
  const changed = new Set<string>()
  for (const file of files) {
    changed.add(file.path)
    if (file.previousPath) changed.add(file.previousPath)
    if (file.status === 'removed') continue
    const served = servedAs(site, file.path)
    if (served === 'unsure') unsure.add(file.path)
    if (typeof served !== 'object' || pages.has(served.page)) continue
    const path = served.page
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
  const isChanged = (spec: string | undefined): boolean => {
    const path = spec === undefined ? undefined : specFile(site, spec)
    return path !== undefined && changed.has(path)
  }
  const named = new Set(
    site.navigation.specs.flatMap(s => specFile(site, s) ?? []).filter(p => changed.has(p))
  )
  const others = files
    .filter(f => f.status !== 'removed' && !named.has(f.path) && maybeSpec(site, f.path))
    .map(f => f.path)
  return {
    pages: [...pages.values()].sort((a, b) => a.path.localeCompare(b.path)),
    unsure: [...unsure].sort(),
    operations: site.navigation.operations.filter(op => isChanged(op.spec)),
    generated: site.navigation.generated.filter(g => isChanged(g.spec)),
    specs: [...new Set([...named, ...others])]
  }
}
