import { type PageOperation, frontmatterOperation } from './frontmatter.js'
import type { Operation } from './navigation.js'
import {
  type OpenApiSpec,
  type OperationPage,
  holds,
  operationPage,
  operationPages,
  readSpec
} from './openapi-pages.js'
import { readDocsSite } from './read-site.js'
import {
  type DocsRepository,
  type FileRead,
  FILES_PER_READ,
  MAX_READ_BYTES,
  textOf,
  whyNoText
} from './repository.js'
import { insideRoot, samePage, sitePath } from './routing.js'
import {
  type DocsSite,
  type FileChange,
  type PageChange,
  type SiteOptions,
  changedPages,
  maybeSpec,
  pageOf,
  specFile,
  unnamedPages
} from './site.js'

/**
 * The pages of a change on a docs site, the one mapping reader impact and the gaps ties use: the
 * pages whose own file changed, and the pages a changed OpenAPI spec renders again: the operations
 * the navigation names from it (at the paths its element's `directory` and `slug` give), every
 * operation of an element that generates them all, and every page whose frontmatter renders one of its
 * operations (`openapi: "spec.json GET /x"`, or with no spec named when no spec before it in
 * alphabetical order holds the operation). Specs and page frontmatter are read within bounds, and
 * what was not read is said.
 */

/** The pages of a change, or why they cannot be told. */
export interface ChangePages {
  pages: PageChange[]
  /** Why the pages cannot be told (no docs root, a site built elsewhere): nothing is measured. */
  unsure?: string
  /** Navigation operations whose spec changed and whose pages could not be told. */
  operations: Operation[]
  /** Specs it changed that generate every operation, whose pages could not be told. */
  wholeSpecs: string[]
  /** What the mapping could not read or follow, or chose, for the reader of the figures. */
  notes: string[]
}

/** Spec files read at most for a site (changed specs and those before them): each is a request. */
export const MAX_SPEC_READS = 5
/** Pages whose frontmatter is read at most for a site, FILES_PER_READ a request. */
export const MAX_FRONTMATTER_PAGES = 400

/** A folder name that holds API reference pages: their frontmatter is read first. */
const API_FOLDER = /^(?:api|apis|api-reference|reference|references|endpoints?|openapi|rest)$/i
/** A file name that may be an OpenAPI spec, among those before a changed one. */
const SPEC_NAME = /openapi|swagger|spec|api/i

/** A spec file as read: the spec, or the read that gave none (no text, or no OpenAPI in it). */
type SpecRead = { spec: OpenApiSpec } | { read: FileRead | 'no-openapi' }

/** The `openapi` frontmatter of the site's pages, as far as it was read. */
interface Frontmatters {
  operations: Map<string, PageOperation>
  read: number
  total: number
}

/** A path in a note (plain text: whoever shows it escapes it), cut when long. */
const shown = (path: string): string => (path.length > 120 ? `${path.slice(0, 120)}…` : path)

/** Why the pages named after these operation IDs are not measured. */
function undocumentedNote(ids: readonly string[]): string {
  const named = ids
    .slice(0, 3)
    .map(id => (id.length > 60 ? `${id.slice(0, 60)}…` : id))
    .join(', ')
  const more = ids.length > 3 ? ` and ${ids.length - 3} more` : ''
  return `Not measured: ${ids.length === 1 ? 'the page' : `${ids.length} pages`} of a changed spec named after operation IDs (slug: operationId) whose kebab case Mintlify's documentation does not give (a digit beside a letter, capitals in a row, or another character): ${named}${more}.`
}

/** A site, and the specs and page frontmatter read for it, shared by all the changes asked about. */
export class SitePages {
  /** Requests made: the site's reads, then specs and frontmatter. */
  requests = 0
  private readonly specs = new Map<string, Promise<SpecRead>>()
  private specReads = 0
  private frontmatter?: Promise<Frontmatters>
  private readonly firstHolders = new Map<string, Promise<string | undefined>>()

  constructor(
    readonly site: DocsSite,
    private readonly repo: DocsRepository
  ) {}

  /** The site of a repository's default branch (read-site.ts), for changes to the files `near`. */
  static async open(
    repo: DocsRepository,
    near: readonly string[],
    options: SiteOptions = {}
  ): Promise<SitePages> {
    const { site, requests } = await readDocsSite(repo, near, options)
    const pages = new SitePages(site, repo)
    pages.requests = requests
    return pages
  }

  /** The pages of a change to `files`. */
  async pagesOf(files: readonly FileChange[]): Promise<ChangePages> {
    const { site } = this
    const notes = [...site.notes]
    if (site.unsure)
      return { pages: [], unsure: site.unsure, operations: [], wholeSpecs: [], notes }
    const changed = changedPages(site, files)
    const rendered = new Set<string>()
    const undocumented = new Set<string>()
    const add = (page: OperationPage): void => {
      if ('path' in page) rendered.add(page.path)
      else undocumented.add(page.undocumentedId)
    }
    const operations: Operation[] = []
    for (const op of changed.operations) {
      const read = await this.specOf(op.spec)
      const page = read && 'spec' in read ? operationPage(read.spec, op.name, op) : undefined
      if (page) add(page)
      else operations.push(op)
    }
    const wholeSpecs: string[] = []
    for (const element of changed.generated) {
      const read = await this.specOf(element.spec)
      const all = read && 'spec' in read ? operationPages(read.spec, element) : []
      all.forEach(add)
      if (!all.length) wholeSpecs.push(element.spec)
    }
    if (undocumented.size) notes.push(undocumentedNote([...undocumented]))
    await this.frontmatterPages(changed.specs, rendered, notes)
    const own = new Set(changed.pages.map(p => samePage(p.path)))
    const pages = [
      ...changed.pages,
      ...[...rendered]
        .filter(p => !own.has(samePage(p)))
        .sort()
        .map(path => ({ path, before: path, moved: false }))
    ]
    if (changed.unsure.length) {
      const why = unnamedPages(site, changed.unsure)
      if (!pages.length) return { pages: [], unsure: why, operations: [], wholeSpecs: [], notes }
      notes.push(`Not measured: ${why}.`)
    }
    return { pages, operations, wholeSpecs: [...new Set(wholeSpecs)], notes }
  }

  /** A spec named by the configuration, read (once); undefined for a URL. */
  private specOf(spec: string | undefined): Promise<SpecRead> | undefined {
    const file = spec === undefined ? undefined : specFile(this.site, spec)
    return file === undefined ? undefined : this.spec(file)
  }

  /** A spec file read and parsed once, within MAX_SPEC_READS. */
  private spec(file: string): Promise<SpecRead> {
    let read = this.specs.get(file)
    if (!read) {
      read =
        this.specReads >= MAX_SPEC_READS
          ? Promise.resolve({ read: { problem: 'not-read' } })
          : this.readSpecFile(file)
      this.specs.set(file, read)
    }
    return read
  }

  private async readSpecFile(file: string): Promise<SpecRead> {
    this.specReads++
    this.requests++
    const read = await this.repo.file(file, MAX_READ_BYTES)
    const text = textOf(read)
    if (text === undefined) return { read }
    const spec = await readSpec(text)
    return spec ? { spec } : { read: 'no-openapi' }
  }

  /**
   * The pages whose frontmatter renders an operation of the changed specs (`changedSpecs`,
   * repository paths of files that may be specs), added to `pages`; what stopped it, to `notes`.
   */
  private async frontmatterPages(
    changedSpecs: readonly string[],
    pages: Set<string>,
    notes: string[]
  ): Promise<void> {
    // The changed files that are specs: read, or not readable but possibly one (a page naming it
    // still renders it).
    const specs = new Map<string, OpenApiSpec | undefined>()
    for (const file of changedSpecs) {
      const read = await this.spec(file)
      if ('spec' in read) specs.set(file, read.spec)
      else if (read.read !== 'no-openapi' && typeof read.read !== 'string') {
        specs.set(file, undefined)
        if (read.read.problem !== 'missing')
          notes.push(
            `${shown(file)} is ${whyNoText(read.read)}: pages rendering its operations without naming it are not measured.`
          )
      }
    }
    if (!specs.size) return
    const frontmatter = await this.frontmatters()
    if (frontmatter.read < frontmatter.total)
      notes.push(
        `Pages rendering a changed spec were looked for in the frontmatter of ${frontmatter.read} of ${frontmatter.total} pages (${MAX_FRONTMATTER_PAGES} at most, API folders first): such a page among the others is not measured.`
      )
    let notTold = 0
    for (const [file, op] of frontmatter.operations) {
      const page = pageOf(this.site, file)
      if (!page) continue
      if (op.spec !== undefined) {
        const named = specFile(this.site, op.spec)
        if (named !== undefined && specs.has(named)) pages.add(page)
        continue
      }
      // No spec named: Mintlify takes the first spec, in alphabetical order, holding it.
      const holders = [...specs]
        .filter(([, spec]) => spec !== undefined && holds(spec, op.name))
        .map(([path]) => path)
        .sort()
      if (!holders.length) continue
      const first = await this.firstHolder(op.name, holders[0] as string)
      if (first === undefined) notTold++
      else if (specs.has(first)) pages.add(page)
    }
    if (notTold)
      notes.push(
        `${notTold === 1 ? 'A page renders' : `${notTold} pages render`} an operation of a changed spec without naming its spec, and a spec file before it in alphabetical order (which Mintlify would take first) could not be read: not measured.`
      )
  }

  /**
   * Which spec a page naming no spec renders `name` from, knowing that `changed` holds it: the
   * first spec file before `changed` in alphabetical order that holds it, else `changed`; undefined
   * when a file before it that may be a spec could not be read.
   */
  private firstHolder(name: string, changed: string): Promise<string | undefined> {
    const key = `${name}\n${changed}`
    let first = this.firstHolders.get(key)
    if (!first) {
      first = (async () => {
        const named = new Set(this.site.navigation.specs.flatMap(s => specFile(this.site, s) ?? []))
        const earlier = this.site.files
          .filter(f => f < changed && maybeSpec(this.site, f))
          .filter(f => named.has(f) || SPEC_NAME.test(insideRoot(f, this.site.root) ?? ''))
          .sort()
        for (const file of earlier) {
          const read = await this.spec(file)
          if ('spec' in read) {
            if (holds(read.spec, name)) return file
          } else if (read.read !== 'no-openapi' && typeof read.read !== 'string') {
            if (read.read.problem !== 'missing') return undefined
          }
        }
        return changed
      })()
      this.firstHolders.set(key, first)
    }
    return first
  }

  /** The `openapi` frontmatter of the site's pages: API folders and OpenAPI groups' pages first. */
  private frontmatters(): Promise<Frontmatters> {
    this.frontmatter ??= (async () => {
      const { site } = this
      const inApi = new Set(site.navigation.openapiPages.map(p => samePage(p)))
      const rank = (file: string, page: string): number =>
        inApi.has(samePage(page)) ||
        (insideRoot(file, site.root) ?? '')
          .split('/')
          .slice(0, -1)
          .some(p => API_FOLDER.test(p))
          ? 0
          : 1
      const candidates = site.files
        .flatMap(file => {
          const page = sitePath(file, site.root, site.ignore)
          return page === undefined ? [] : [{ file, rank: rank(file, page) }]
        })
        .sort((a, b) => a.rank - b.rank || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
      const chosen = candidates.slice(0, MAX_FRONTMATTER_PAGES).map(c => c.file)
      const operations = new Map<string, PageOperation>()
      for (let i = 0; i < chosen.length; i += FILES_PER_READ) {
        this.requests++
        const texts = await this.repo.files(chosen.slice(i, i + FILES_PER_READ))
        for (const [file, read] of texts) {
          const text = textOf(read)
          const op = text === undefined ? undefined : frontmatterOperation(text)
          if (op) operations.set(file, op)
        }
      }
      return { operations, read: chosen.length, total: candidates.length }
    })()
    return this.frontmatter
  }
}

/**
 * The pages a docs pull request's files are on its repository's site: the site read once (the tree
 * and the files that decide), then its pages and those its changed specs render.
 */
export async function pagesOfChange(
  repo: DocsRepository,
  files: readonly FileChange[],
  options: SiteOptions = {}
): Promise<ChangePages> {
  const near = files.filter(f => f.status !== 'removed').map(f => f.path)
  const pages = await SitePages.open(repo, near, options)
  return pages.pagesOf(files)
}
