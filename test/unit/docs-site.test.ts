import { describe, expect, it } from 'vitest'
import { readNavigation } from '../../src/docs-site/navigation.js'
import { ignoreRules, sitePath } from '../../src/docs-site/routing.js'
import { parseDocsRoot } from '../../src/docs-site/docs-root.js'
import { readDocsSite } from '../../src/docs-site/read-site.js'
import { type ChangePages, SitePages, pagesOfChange } from '../../src/docs-site/site-pages.js'
import {
  type DocsSite,
  type FileChange,
  type SiteOptions,
  changedPages,
  pageOf
} from '../../src/docs-site/site.js'
import {
  API_REFERENCE_SITE,
  BOTH_CONFIGS,
  BUILT_SITE,
  type DocsLayout,
  GENERATED_SITE,
  LANGUAGES_SITE,
  LEGACY_SITE,
  LOCALIZED_API_SITE,
  MONOREPO_SITE,
  OPERATION_ID_SITE,
  bigConfigSite,
  layoutRepository,
  twoRootsSite
} from '../fixtures/docs-sites.js'

/** The site of a layout as the flows read it: the tree, then the files the mapping asks for. */
async function siteOf(
  layout: DocsLayout,
  near: string[] = [],
  { truncated = false, ...options }: SiteOptions & { truncated?: boolean } = {}
): Promise<DocsSite> {
  return (await readDocsSite(layoutRepository(layout, { truncated }), near, options)).site
}

/** Every file of a layout that is a page, with its path. */
const pagesOf = (site: DocsSite, layout: DocsLayout): Record<string, string> =>
  Object.fromEntries(
    layout.paths.flatMap(p => {
      const page = pageOf(site, p)
      return page === undefined ? [] : [[p, page]]
    })
  )

const file = (path: string, over: Partial<FileChange> = {}): FileChange => ({
  path,
  status: 'modified',
  additions: 1,
  deletions: 0,
  ...over
})

/** The pages of a change to `paths` on a layout, and what was read for them. */
async function changeOn(
  layout: DocsLayout,
  paths: string[],
  options: SiteOptions = {}
): Promise<ChangePages & { reads: string[] }> {
  const repo = layoutRepository(layout)
  const pages = await pagesOfChange(
    repo,
    paths.map(p => file(p)),
    options
  )
  return { ...pages, reads: repo.reads }
}

describe('docs files as site paths', () => {
  it('maps pages as Mintlify serves them: extension dropped, index to its folder, under the docs root', () => {
    expect(sitePath('guides/retry.mdx', '')).toBe('/guides/retry')
    expect(sitePath('guides/retry.md', '')).toBe('/guides/retry')
    expect(sitePath('index.mdx', '')).toBe('/')
    expect(sitePath('guides/index.mdx', '')).toBe('/guides')
    expect(sitePath('docs/guides/retry.mdx', 'docs')).toBe('/guides/retry')
    expect(sitePath('docs/index.md', 'docs')).toBe('/')
  })

  it('is no page: snippets, other files, files outside the root, odd paths', () => {
    expect(sitePath('snippets/flag.mdx', '')).toBeUndefined()
    expect(sitePath('docs/snippets/flag.mdx', 'docs')).toBeUndefined()
    expect(sitePath('images/logo.png', '')).toBeUndefined()
    expect(sitePath('docs.json', '')).toBeUndefined()
    expect(sitePath('src/readme.md', 'docs')).toBeUndefined()
    expect(sitePath('docs//x.mdx', 'docs')).toBeUndefined()
    expect(sitePath('docs/../x.mdx', 'docs')).toBeUndefined()
    expect(sitePath(`${'a/'.repeat(600)}x.mdx`, '')).toBeUndefined()
  })

  it('a snippets folder below the docs root’s first level is pages like any other', () => {
    // Mintlify documents only the root's /snippets/ folder as snippets.
    expect(sitePath('guides/snippets/flag.mdx', '')).toBe('/guides/snippets/flag')
    expect(sitePath('docs/api/snippets/auth.mdx', 'docs')).toBe('/api/snippets/auth')
  })

  it('is no page: what Mintlify ignores by default, at any depth', () => {
    for (const path of [
      'README.md',
      'CONTRIBUTING.md',
      'LICENSE.md',
      'CHANGELOG.md',
      'guides/README.md',
      '.github/pull_request_template.md',
      '.claude/skills/writing/SKILL.md',
      '.agents/notes.md',
      '.mintlify/Assistant.md',
      '.vscode/notes.md',
      '.idea/notes.md',
      '.cache/page.mdx',
      '.git/info.md',
      'node_modules/pkg/readme.md',
      'build/index.mdx',
      'dist/a.md',
      'coverage/report.md',
      'guides/node_modules/x.mdx'
    ])
      expect(sitePath(path, ''), path).toBeUndefined()
    expect(sitePath('guides/readme-first.mdx', '')).toBe('/guides/readme-first')
  })

  it('serves the dot-folders Mintlify does not list as ignored, as it documents', () => {
    // Mintlify's "Default ignored patterns" name .git .github .claude .agents .idea .vscode .cache
    // (and it never serves .mintlify/); any other folder is served.
    expect(sitePath('.changeset/brave-lions.md', '')).toBe('/.changeset/brave-lions')
    expect(sitePath('.cursor/rules.mdx', '')).toBe('/.cursor/rules')
    expect(sitePath('guides/.vscode/notes.md', '')).toBeUndefined()
  })

  it('reads .mintignore as gitignore: folders, globs at any depth, anchored paths, negations', () => {
    const ignored = ignoreRules(
      '# notes\n\ndrafts/\n*.draft.mdx\n!keep.draft.mdx\n/private.mdx\ninternal/**/secret.md\n[\n'
    )
    expect(ignored('drafts/next.mdx')).toBe(true)
    expect(ignored('guides/drafts/next.mdx')).toBe(true)
    expect(ignored('drafts.mdx')).toBe(false)
    expect(ignored('guides/retry.draft.mdx')).toBe(true)
    expect(ignored('guides/keep.draft.mdx')).toBe(false)
    expect(ignored('private.mdx')).toBe(true)
    expect(ignored('guides/private.mdx')).toBe(false)
    expect(ignored('internal/a/b/secret.md')).toBe(true)
    expect(ignored('guides/sso.mdx')).toBe(false)
    expect(ignoreRules(undefined)('a.mdx')).toBe(false)
  })

  it('follows git: a file in an excluded folder is not included again by a negation', () => {
    const ignored = ignoreRules('drafts/\n!drafts/keep.mdx\narchive/*\n!archive/kept.mdx\n')
    expect(ignored('drafts/keep.mdx')).toBe(true)
    expect(ignored('archive/old.mdx')).toBe(true)
    expect(ignored('archive/kept.mdx')).toBe(false)
  })
})

describe('the docs root, from one tree read', () => {
  it('at the root of a site with languages: every page, and nothing Mintlify does not serve', async () => {
    const site = await siteOf(LANGUAGES_SITE)
    expect(site.root).toBe('')
    expect(site.unsure).toBeUndefined()
    expect(site.navigation.languages).toEqual(['en', 'es', 'fr', 'zh'])
    expect(pagesOf(site, LANGUAGES_SITE)).toEqual({
      'index.mdx': '/',
      'quickstart.mdx': '/quickstart',
      'advanced-support.mdx': '/advanced-support',
      'guides/index.mdx': '/guides',
      'guides/sso.mdx': '/guides/sso',
      // .mintignore: `*.draft.mdx` out, `!keep.draft.mdx` back in; `drafts/` out. Not in the
      // navigation: a hidden page, served all the same.
      'guides/keep.draft.mdx': '/guides/keep.draft',
      'api/introduction.mdx': '/api/introduction',
      'es/index.mdx': '/es',
      'es/advanced-support.mdx': '/es/advanced-support',
      'fr/advanced-support.mdx': '/fr/advanced-support',
      'zh/advanced-support.mdx': '/zh/advanced-support',
      'zh/guides/sso.mdx': '/zh/guides/sso'
    })
  })

  it('two folders deep in a monorepo, past changesets and agent skills, at a fixed cost', async () => {
    const near = [
      '.changeset/brave-lions.md',
      '.claude/skills/release/SKILL.md',
      'apps/docs/sdk/client.md'
    ]
    const repo = layoutRepository(MONOREPO_SITE)
    const { site } = await readDocsSite(repo, near)
    // The only folder holding a changed file: the template's docs.json is not even read.
    expect(repo.reads).toEqual(['tree', 'apps/docs/docs.json'])
    expect(site.root).toBe('apps/docs')
    expect(site.notes).toEqual([])
    expect(pagesOf(site, MONOREPO_SITE)).toEqual({
      'apps/docs/index.mdx': '/',
      'apps/docs/getting-started.mdx': '/getting-started',
      'apps/docs/sdk/index.mdx': '/sdk',
      'apps/docs/sdk/client.md': '/sdk/client'
    })
    // With no changed file to go by, the shallowest of the folders holding a docs.json.
    expect((await siteOf(MONOREPO_SITE)).root).toBe('apps/docs')
  })

  it('a legacy mint.json site, with versions and a whole-spec OpenAPI anchor', async () => {
    const site = await siteOf(LEGACY_SITE)
    expect([site.root, site.config]).toEqual(['docs', 'mint.json'])
    expect(pagesOf(site, LEGACY_SITE)).toEqual({
      'docs/introduction.mdx': '/introduction',
      'docs/v1/setup.mdx': '/v1/setup',
      'docs/v2/setup.mdx': '/v2/setup'
    })
    expect(site.navigation.generated).toEqual([{ spec: 'openapi.yaml', directory: 'Reference' }])
  })

  it('holds no docs root in folders Mintlify ignores', async () => {
    const ignored = {
      paths: ['node_modules/theme/docs.json', '.github/docs.json', 'a.mdx'],
      texts: {}
    }
    expect((await siteOf(ignored)).unsure).toBe('the repository holds no docs.json or mint.json')
    const site = await siteOf({
      paths: ['node_modules/theme/docs.json', 'site/mint.json'],
      texts: {}
    })
    expect([site.root, site.config]).toEqual(['site', 'mint.json'])
  })

  it('takes Mintlify’s default, the repository root, when its navigation describes its files', async () => {
    // Both folders describe docs/intro.mdx: the root's as /docs/intro, docs/docs.json's as /intro.
    const layout = twoRootsSite('docs/')
    const repo = layoutRepository(layout)
    const { site } = await readDocsSite(repo, ['docs/intro.mdx'])
    expect(site.root).toBe('')
    expect(site.notes).toEqual([])
    expect(pageOf(site, 'docs/intro.mdx')).toBe('/docs/intro')
    expect(repo.reads).toEqual(['tree', 'docs.json'])
  })

  it('takes the deeper folder only when the root’s navigation contradicts it, and says so', async () => {
    const site = await siteOf(twoRootsSite('gone/'), ['docs/intro.mdx'])
    expect(site.root).toBe('docs')
    expect(site.unsure).toBeUndefined()
    expect(pageOf(site, 'docs/intro.mdx')).toBe('/intro')
    expect(site.notes).toEqual([
      "The pages are mapped from docs/, the one folder whose docs.json describes its files: the navigation of docs.json names 8 pages no file under the repository root serves. If Mintlify deploys another folder, name it with 'docs-root'."
    ])
    // A leftover mint.json at the root that holds nothing: site/docs.json, said.
    const both = await siteOf(BOTH_CONFIGS, ['old.mdx'])
    expect([both.root, both.config]).toEqual(['site', 'docs.json'])
    expect(both.notes[0]).toMatch(/^The pages are mapped from site\/.*mint\.json is no JSON\./)
  })

  it('is unsure, never picking a deeper folder silently, when no folder or several could be the one', async () => {
    const layout = twoRootsSite('gone/')
    const beside = {
      paths: [...layout.paths, 'docs/v2/docs.json'],
      texts: { ...layout.texts, 'docs/v2/docs.json': layout.texts['docs/docs.json'] as string }
    }
    // docs/v2/docs.json names the same pages, served under docs/v2 too: both fit.
    beside.paths.push(
      ...layout.paths.filter(p => p.endsWith('.mdx')).map(p => p.replace('docs/', 'docs/v2/'))
    )
    const site = await siteOf(beside, ['docs/intro.mdx'])
    expect(site.unsure).toBe(
      "the navigation of docs.json names 8 pages no file under the repository root serves, and 2 folders describe their files (docs/, docs/v2/): which folder Mintlify deploys is a setting of its dashboard: name it with 'docs-root'"
    )
    // No root configuration, and two folders holding the changed files whose navigations fit.
    const nested = {
      paths: beside.paths.filter(p => p !== 'docs.json'),
      texts: beside.texts
    }
    expect((await siteOf(nested, ['docs/v2/intro.mdx'])).unsure).toMatch(
      /^2 folders hold a docs\.json or mint\.json and the changed files \(docs\/, docs\/v2\/\), and 2 folders describe their files/
    )
  })

  it('takes the folder docs-root names, and refuses one outside the repository', async () => {
    const site = await siteOf(twoRootsSite('docs/'), ['docs/intro.mdx'], { docsRoot: 'docs/' })
    expect(site.root).toBe('docs')
    expect(pageOf(site, 'docs/intro.mdx')).toBe('/intro')
    expect((await siteOf(twoRootsSite('docs/'), [], { docsRoot: 'site' })).unsure).toBe(
      "site/, which 'docs-root' names, holds no docs.json or mint.json"
    )
    expect((await siteOf(twoRootsSite('docs/'), [], { docsRoot: '../docs' })).unsure).toMatch(
      /^'docs-root' must name a folder inside the repository/
    )
    expect(parseDocsRoot('./apps/docs/')).toEqual({ root: 'apps/docs' })
    expect(parseDocsRoot('.')).toEqual({ root: '' })
    for (const bad of ['/docs', 'a/../b', 'a//b', 'https://x/docs', 'C:\\docs', 'a\nb'])
      expect(parseDocsRoot(bad), bad).toHaveProperty('problem')
  })

  it('is unsure, and says why, with no docs root or a site built from another folder', async () => {
    expect((await siteOf({ paths: ['README.md', 'a.mdx'], texts: {} })).unsure).toBe(
      'the repository holds no docs.json or mint.json'
    )
    expect((await siteOf({ paths: ['a.mdx'], texts: {} }, [], { truncated: true })).unsure).toMatch(
      /too large/
    )
    expect((await siteOf(GENERATED_SITE)).unsure).toBe(
      'the navigation of docs.json names 6 pages no file under the repository root serves: the site seems built from another folder'
    )
    // A few pages named and missing are ordinary (a page on its way): not unsure.
    expect((await siteOf(LANGUAGES_SITE)).unsure).toBeUndefined()
  })

  it('a site whose files and navigation use capitals is served from its own folder', async () => {
    const names = ['Getting-Started', 'API/Auth', 'API/Errors', 'Guides/SSO', 'Guides/Retry', 'FAQ']
    const site = await siteOf({
      paths: ['docs.json', ...names.map(n => `${n}.mdx`)],
      texts: { 'docs.json': JSON.stringify({ navigation: { pages: names } }) }
    })
    expect(site.unsure).toBeUndefined()
  })
})

describe('a configuration split by $ref, or large', () => {
  it('follows $ref two levels down, each relative to the file holding it: languages and redirects', async () => {
    const repo = layoutRepository(API_REFERENCE_SITE)
    const { site } = await readDocsSite(repo, [])
    expect(site.notes).toEqual([])
    expect(site.navigation.languages).toEqual(['en', 'fr'])
    // config/fr.json's ref to ./fr-api.json is config/fr-api.json.
    expect(site.navigation.pages).toContain('fr/api/update/trigger')
    expect(site.navigation.redirects).toEqual(['/api/update/old-trigger'])
    expect(pageOf(site, 'api/update/old-trigger.mdx')).toBeUndefined()
    expect(site.configFiles).toEqual([
      'docs.json',
      'config/fr.json',
      'config/fr-api.json',
      'config/redirects.json'
    ])
    expect(repo.reads).toEqual([
      'tree',
      'docs.json',
      'config/fr.json',
      'config/redirects.json',
      'config/fr-api.json'
    ])
  })

  it('lays sibling keys over a referenced object, and says what it did not follow and why', async () => {
    const nav = (pages: string[]) => JSON.stringify({ groups: [{ group: 'G', pages }] })
    const layout: DocsLayout = {
      paths: ['docs.json', 'a.mdx', 'nav.json', 'loop-a.json', 'loop-b.json', 'bad.json'],
      texts: {
        'docs.json': JSON.stringify({
          navigation: { $ref: 'nav.json', languages: [{ language: 'de', $ref: 'loop-a.json' }] },
          redirects: [
            { $ref: '../outside.json' },
            { $ref: '/abs.json' },
            { $ref: 'bad.json' },
            { $ref: 'https://example.com/r.json' },
            { $ref: 'missing.json' }
          ]
        }),
        'nav.json': nav(['a']),
        'loop-a.json': JSON.stringify({ $ref: 'loop-b.json' }),
        'loop-b.json': JSON.stringify({ $ref: 'loop-a.json' }),
        'bad.json': '{ not json'
      }
    }
    const site = await siteOf(layout)
    expect(site.navigation.pages).toEqual(['a'])
    expect(site.navigation.languages).toEqual(['de'])
    expect(site.notes).toEqual([
      "loop-b.json's $ref to loop-a.json was not followed: the refs go round in a circle.",
      "docs.json's $ref to ../outside.json was not followed: it leads out of the docs root.",
      "docs.json's $ref to /abs.json was not followed: it is not a relative path.",
      "docs.json's $ref to bad.json was not followed: the file is no JSON.",
      "docs.json's $ref to https://example.com/r.json was not followed: it is not a relative path.",
      'Other refs were not followed either.'
    ])
  })

  it('stops refs at their bounds in depth, files and size, and says so', async () => {
    const chain = Array.from({ length: 8 }, (_, i) => `c${i}.json`)
    const layout: DocsLayout = {
      paths: ['docs.json', 'a.mdx', ...chain],
      texts: {
        'docs.json': JSON.stringify({ navigation: { $ref: 'c0.json' } }),
        ...Object.fromEntries(
          chain.map((c, i) => [
            c,
            JSON.stringify(i < 7 ? { $ref: `c${i + 1}.json` } : { pages: ['a'] })
          ])
        )
      }
    }
    const site = await siteOf(layout)
    expect(site.notes).toEqual([
      "c4.json's $ref to c5.json was not followed: refs go 5 files deep at most."
    ])
    const wide = Array.from({ length: 40 }, (_, i) => `g${i}.json`)
    const many = await siteOf({
      paths: ['docs.json', ...wide],
      texts: {
        'docs.json': JSON.stringify({ navigation: { groups: wide.map(g => ({ $ref: g })) } }),
        ...Object.fromEntries(wide.map(g => [g, JSON.stringify({ group: g, pages: [] })]))
      }
    })
    expect(many.notes[0]).toMatch(/30 files are followed at most\.$/)
    // Redirects of 6 MB, then a navigation of 6 MB: that would take the whole past 10 MB.
    const redirects = JSON.stringify(
      Array.from({ length: 60_000 }, (_, i) => ({
        source: `/old/${String(i).padStart(70, '0')}`,
        destination: '/a'
      }))
    )
    const large = await siteOf({
      paths: ['docs.json', 'a.mdx', 'redirects.json', 'navigation.json'],
      texts: {
        'docs.json': JSON.stringify({
          redirects: { $ref: 'redirects.json' },
          navigation: { $ref: 'navigation.json' }
        }),
        'redirects.json': redirects,
        'navigation.json': JSON.stringify({ pages: ['a'], padding: 'x'.repeat(6_000_000) })
      }
    })
    expect(large.notes).toEqual([
      "docs.json's $ref to navigation.json was not followed: the configuration and its refs are over 10 MB."
    ])
    expect(large.navigation.redirects).toHaveLength(60_000)
    expect(large.navigation.pages).toEqual([])
  })

  it('reads a configuration over 1 MB, whole', async () => {
    const layout = bigConfigSite()
    expect((layout.texts['docs.json'] as string).length).toBeGreaterThan(2_000_000)
    const site = await siteOf(layout)
    expect(site.notes).toEqual([])
    expect(site.navigation.pages).toEqual(['index', 'guides/page-1'])
    // The last of 24,001 redirects: read to the end.
    expect(pageOf(site, 'guides/retired.mdx')).toBeUndefined()
    expect(pageOf(site, 'guides/page-1.mdx')).toBe('/guides/page-1')
  })

  it('says so when the configuration is larger than is read', async () => {
    const layout = bigConfigSite(130_000)
    const site = await siteOf(layout)
    expect(site.notes).toEqual([
      'docs.json is over 10 MB, more than is read: its navigation, redirects and OpenAPI pages are not known.'
    ])
    expect(pageOf(site, 'guides/page-1.mdx')).toBe('/guides/page-1')
  })
})

describe('the pages a pull request changed', () => {
  it('each once; a renamed page read at its old path before the merge, one that only moved said so', async () => {
    const site = await siteOf(LANGUAGES_SITE)
    const changed = changedPages(site, [
      file('guides/sso.mdx', { status: 'renamed', previousPath: 'guides/single-sign-on.mdx' }),
      file('quickstart.mdx', { status: 'renamed', previousPath: 'start.mdx', additions: 0 }),
      file('advanced-support.mdx'),
      file('advanced-support.mdx'),
      file('old.mdx', { status: 'removed' }),
      file('drafts/next.mdx', { status: 'added' }),
      file('es/index.mdx', { status: 'renamed', previousPath: 'drafts/es-index.mdx' }),
      file('CONTRIBUTING.md'),
      file('snippets/plan.mdx'),
      file('images/logo.png')
    ])
    expect(changed.pages).toEqual([
      { path: '/advanced-support', before: '/advanced-support', moved: false },
      // From an ignored draft: no old page to read.
      { path: '/es', before: '/es', moved: false },
      { path: '/guides/sso', before: '/guides/single-sign-on', moved: false },
      { path: '/quickstart', before: '/start', moved: true }
    ])
    expect(changed.operations).toEqual([])
    expect(changed.specs).toEqual([])
  })

  it('a redirect’s source is no page', async () => {
    const site = await siteOf(LANGUAGES_SITE)
    expect(sitePath('guides/retry.mdx', '')).toBe('/guides/retry')
    expect(pageOf(site, 'guides/retry.mdx')).toBeUndefined()
  })

  it('a page renamed with the redirect Mintlify recommends is read at its old path before the merge', async () => {
    // The redirect from the old path describes the site after the merge; before it, the page was there.
    const site = await siteOf(LANGUAGES_SITE)
    const changed = changedPages(site, [
      file('guides/sso.mdx', { status: 'renamed', previousPath: 'guides/retry.mdx', additions: 0 })
    ])
    expect(changed.pages).toEqual([{ path: '/guides/sso', before: '/guides/retry', moved: true }])
  })

  it('on a site partly built from another folder, a changed page the navigation does not name is unsure, and measured for nothing', async () => {
    const site = await siteOf(BUILT_SITE)
    expect(site.unsure).toBeUndefined()
    expect(site.builtElsewhere?.missing).toBe(6)
    const both = await changeOn(BUILT_SITE, ['oss/quickstart.mdx', 'home/pricing.mdx'])
    expect(both.pages.map(p => p.path)).toEqual(['/home/pricing'])
    expect(both.notes).toEqual([
      'Not measured: oss/quickstart.mdx: the navigation does not name its page, and it names 6 pages no file under the repository root serves: the site seems built partly from another folder.'
    ])
    const alone = await changeOn(BUILT_SITE, ['oss/quickstart.mdx', 'oss/install.mdx'])
    expect(alone.pages).toEqual([])
    expect(alone.unsure).toBe(
      'oss/install.mdx, oss/quickstart.mdx: the navigation does not name their pages, and it names 6 pages no file under the repository root serves: the site seems built partly from another folder'
    )
  })
})

describe('the pages a spec change renders again', () => {
  it('the operations the navigation names from it, or every operation of an element generating them', async () => {
    const changed = await changeOn(LANGUAGES_SITE, ['api/openapi.json'])
    // The paths Mintlify documents: directory (api-reference), tag, summary as a slug.
    expect(changed.pages.map(p => p.path)).toEqual([
      '/api-reference/users/create-a-user-admins',
      '/api-reference/users/list-users'
    ])
    expect(changed.operations).toEqual([])
    // A spec that cannot be read leaves its operations named, unmeasured.
    const broken = {
      ...LANGUAGES_SITE,
      texts: { ...LANGUAGES_SITE.texts, 'api/openapi.json': ': not [ a spec' }
    }
    expect((await changeOn(broken, ['api/openapi.json'])).operations).toHaveLength(2)
    // YAML; the `directory` of the openapi field; no summary: method and path; x-mint.href wins.
    const legacy = await changeOn(LEGACY_SITE, ['docs/openapi.yaml'])
    expect(legacy.pages.map(p => p.path)).toEqual([
      '/reference/get-v2-items-parts',
      '/reference/v2'
    ])
    expect(legacy.wholeSpecs).toEqual([])
  })

  it('each element’s own directory, its slashes kept: one spec, one section per language', async () => {
    const changed = await changeOn(LOCALIZED_API_SITE, ['api/openapi.json'])
    expect(changed.pages.map(p => p.path)).toEqual([
      '/api-reference/v2/users/delete-user',
      '/api-reference/v2/users/list-users',
      '/ko/api-reference/v2/users/delete-user',
      '/ko/api-reference/v2/users/list-users'
    ])
    const v1 = await changeOn(LOCALIZED_API_SITE, ['api/v1.json'])
    expect(v1.pages.map(p => p.path)).toEqual(['/api-reference/v1/users/list-users'])
  })

  it('slug: operationId names generated pages after their operation IDs, and an ID Mintlify does not document how to split is said, not measured', async () => {
    const changed = await changeOn(OPERATION_ID_SITE, ['openapi.json'])
    // camelCase and snake_case as documented; no ID: the summary; x-mint.href first.
    expect(changed.pages.map(p => p.path)).toEqual([
      '/reference/users/create-user',
      '/reference/users/delete-user',
      '/reference/users/edit',
      '/reference/users/list-users'
    ])
    expect(changed.notes).toEqual([
      "Not measured: 2 pages of a changed spec named after operation IDs (slug: operationId) whose kebab case Mintlify's documentation does not give (a digit beside a letter, capitals in a row, or another character): getHTTPStatus, listUsersV2."
    ])
    // Operations the navigation lists, in the default directory; a leading capital is no word.
    const billing = await changeOn(OPERATION_ID_SITE, ['billing.yaml'])
    expect(billing.pages.map(p => p.path)).toEqual(['/api-reference/invoices/create-invoice'])
    expect(billing.notes).toEqual([
      "Not measured: the page of a changed spec named after operation IDs (slug: operationId) whose kebab case Mintlify's documentation does not give (a digit beside a letter, capitals in a row, or another character): invoices.list."
    ])
    expect(billing.operations).toEqual([])
    // Read from the openapi field, beside its directory; any other slug value is the summary's.
    const nav = readNavigation(
      JSON.stringify({
        openapi: { source: 'a.json', slug: 'OperationID' },
        navigation: {
          groups: [
            { group: 'A', pages: ['GET /a', 'b.json GET /b'] },
            { group: 'C', openapi: { source: 'c.json', directory: 'c', slug: 'summary' } }
          ]
        }
      })
    )
    expect(nav.operations).toEqual([
      { name: 'GET /a', spec: 'a.json', slug: 'operationId' },
      { name: 'GET /b', spec: 'b.json' }
    ])
    expect(nav.generated).toEqual([{ spec: 'c.json', directory: 'c' }])
  })

  it('every page whose frontmatter renders one of its operations: its spec named, or none named and it first', async () => {
    const openapi = await changeOn(API_REFERENCE_SITE, ['openapi.json'])
    expect(openapi.pages.map(p => p.path)).toEqual([
      '/api/projects/get',
      '/api/update/status',
      '/api/update/trigger',
      '/guides/webhooks'
    ])
    expect(openapi.notes).toEqual([])
    // `GET /users` names no spec: admin-openapi.json holds it and comes first, so it renders it.
    const admin = await changeOn(API_REFERENCE_SITE, ['admin-openapi.json'])
    expect(admin.pages.map(p => p.path)).toEqual(['/api/agent/create-job', '/api/users/list'])
    // Each language its own copy of the spec.
    const french = await changeOn(API_REFERENCE_SITE, ['fr/openapi.json'])
    expect(french.pages.map(p => p.path)).toEqual(['/fr/api/update/trigger'])
    // Reads: the tree, the configuration and its three refs, the spec (and those before it for a
    // page naming none), then every page's frontmatter in one request.
    expect(openapi.reads).toEqual([
      'tree',
      'docs.json',
      'config/fr.json',
      'config/redirects.json',
      'config/fr-api.json',
      'openapi.json',
      'files:12',
      'admin-openapi.json',
      'fr/openapi.json'
    ])
    // A file that is no spec renders nothing, and nothing is read for it.
    const none = await changeOn(API_REFERENCE_SITE, ['package.json', 'api/introduction.mdx'])
    expect(none.pages.map(p => p.path)).toEqual(['/api/introduction'])
    expect(none.reads).not.toContain('files:12')
  })

  it('within its bounds: the pages beyond them, and a spec before it that could not be read, are said', async () => {
    const many = Array.from({ length: 450 }, (_, i) => `guides/g${String(i).padStart(3, '0')}.mdx`)
    const layout: DocsLayout = {
      ...API_REFERENCE_SITE,
      paths: [...API_REFERENCE_SITE.paths, ...many]
    }
    const changed = await changeOn(layout, ['openapi.json'])
    // API folders first: their pages are read, and tied.
    expect(changed.pages.map(p => p.path)).toContain('/api/projects/get')
    expect(changed.notes).toEqual([
      'Pages rendering a changed spec were looked for in the frontmatter of 400 of 462 pages (400 at most, API folders first): such a page among the others is not measured.'
    ])
    expect(changed.reads.filter(r => r.startsWith('files:'))).toEqual([
      'files:50',
      'files:50',
      'files:50',
      'files:50',
      'files:50',
      'files:50',
      'files:50',
      'files:50'
    ])
    // admin-openapi.json, before openapi.json, too large to read: whether it holds GET /users,
    // GET /projects/{id} or the webhook cannot be told.
    const large: DocsLayout = {
      ...API_REFERENCE_SITE,
      texts: { ...API_REFERENCE_SITE.texts, 'admin-openapi.json': 'x'.repeat(11 * 1024 * 1024) }
    }
    const unknown = await changeOn(large, ['openapi.json'])
    expect(unknown.pages.map(p => p.path)).toEqual(['/api/update/status', '/api/update/trigger'])
    expect(unknown.notes).toEqual([
      '3 pages render an operation of a changed spec without naming its spec, and a spec file before it in alphabetical order (which Mintlify would take first) could not be read: not measured.'
    ])
  })

  it('one site read for many changes: specs and frontmatter read once', async () => {
    const repo = layoutRepository(API_REFERENCE_SITE)
    const pages = await SitePages.open(repo, ['openapi.json', 'admin-openapi.json'])
    await pages.pagesOf([file('openapi.json')])
    await pages.pagesOf([file('admin-openapi.json')])
    expect(repo.reads.filter(r => r.startsWith('files:'))).toEqual(['files:12'])
    expect(repo.reads.filter(r => r.endsWith('openapi.json'))).toEqual([
      'openapi.json',
      'admin-openapi.json',
      'fr/openapi.json'
    ])
    expect(pages.requests).toBe(repo.reads.length)
  })
})

describe('the navigation, read from hostile text', () => {
  it('takes pages only from pages lists, operations with their spec, and survives any shape', () => {
    const nav = readNavigation(
      JSON.stringify({
        navigation: {
          groups: [
            {
              group: 'Not a page',
              icon: 'rocket',
              pages: ['a', { group: 'Inner', pages: ['b/c'] }]
            },
            { group: 'API', pages: ['spec.yaml GET /x', 'delete /y/{id}'] }
          ]
        },
        openapi: 'root.json'
      })
    )
    expect(nav.pages).toEqual(['a', 'b/c'])
    expect(nav.operations).toEqual([
      { name: 'GET /x', spec: 'spec.yaml' },
      { name: 'DELETE /y/{id}', spec: 'root.json' }
    ])
    expect(readNavigation('not json').unreadable).toBe(true)
    expect(readNavigation('[1,2]').unreadable).toBe(true)
    // Nested past any real navigation: the walk stops, whatever JSON.parse makes of it.
    const deep = `{"navigation":${'{"groups":['.repeat(5_000)}{"pages":["deep"]}${']}'.repeat(5_000)}}`
    expect(readNavigation(deep).pages).toEqual([])
    expect(readNavigation(deep).stopped).toBe(true)
    const shallow = `{"navigation":${'{"groups":['.repeat(10)}{"pages":["deep"]}${']}'.repeat(10)}}`
    expect(readNavigation(shallow).pages).toEqual(['deep'])
  })
})
