import { describe, expect, it } from 'vitest'
import { readNavigation } from '../../src/docs-site/navigation.js'
import { findDocsRoot, ignoreRules, sitePath } from '../../src/docs-site/routing.js'
import {
  type DocsSite,
  type FileChange,
  changedPages,
  docsSite,
  pageOf,
  readPlan,
  specPages,
  specsToRead
} from '../../src/docs-site/site.js'
import {
  BOTH_CONFIGS,
  type DocsLayout,
  GENERATED_SITE,
  LANGUAGES_SITE,
  LEGACY_SITE,
  MONOREPO_SITE
} from '../fixtures/docs-sites.js'

/** The site of a layout as the flows build it: the tree, then the files readPlan asks for. */
function siteOf(layout: DocsLayout, near: string[] = [], truncated = false): DocsSite {
  const texts = new Map<string, string>()
  for (const path of readPlan(layout.paths, near)) {
    const text = layout.texts[path]
    if (text !== undefined) texts.set(path, text)
  }
  return docsSite({ paths: layout.paths, truncated }, texts, near)
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
      '.changeset/brave-lions.md',
      'node_modules/pkg/readme.md',
      'build/index.mdx',
      'dist/a.md',
      'coverage/report.md',
      'guides/node_modules/x.mdx'
    ])
      expect(sitePath(path, ''), path).toBeUndefined()
    expect(sitePath('guides/readme-first.mdx', '')).toBe('/guides/readme-first')
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
  it('at the root of a site with languages: every page, and nothing Mintlify does not serve', () => {
    const site = siteOf(LANGUAGES_SITE)
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

  it('two folders deep in a monorepo, past changesets and agent skills, at a fixed cost', () => {
    const near = [
      '.changeset/brave-lions.md',
      '.claude/skills/release/SKILL.md',
      'apps/docs/sdk/client.md'
    ]
    expect(readPlan(MONOREPO_SITE.paths, near)).toEqual(['apps/docs/docs.json'])
    const site = siteOf(MONOREPO_SITE, near)
    expect(site.root).toBe('apps/docs')
    expect(pagesOf(site, MONOREPO_SITE)).toEqual({
      'apps/docs/index.mdx': '/',
      'apps/docs/getting-started.mdx': '/getting-started',
      'apps/docs/sdk/index.mdx': '/sdk',
      'apps/docs/sdk/client.md': '/sdk/client'
    })
    // With no changed file to go by, the shallowest of the folders holding a docs.json.
    expect(findDocsRoot(MONOREPO_SITE.paths)?.root).toBe('apps/docs')
    // The changed files decide between two: the deepest root holding them.
    expect(findDocsRoot([...MONOREPO_SITE.paths, 'docs.json'], ['apps/docs/index.mdx'])?.root).toBe(
      'apps/docs'
    )
  })

  it('a legacy mint.json site, with versions and a whole-spec OpenAPI anchor', () => {
    const site = siteOf(LEGACY_SITE)
    expect([site.root, site.config]).toEqual(['docs', 'mint.json'])
    expect(pagesOf(site, LEGACY_SITE)).toEqual({
      'docs/introduction.mdx': '/introduction',
      'docs/v1/setup.mdx': '/v1/setup',
      'docs/v2/setup.mdx': '/v2/setup'
    })
    expect(site.navigation.wholeSpecs).toEqual(['openapi.yaml'])
  })

  it('holds no docs root in folders Mintlify ignores', () => {
    expect(
      findDocsRoot(['node_modules/theme/docs.json', '.github/docs.json', 'a.mdx'])
    ).toBeUndefined()
    expect(findDocsRoot(['node_modules/theme/docs.json', 'site/mint.json'])).toEqual({
      root: 'site',
      config: 'mint.json'
    })
  })

  it('docs.json wins over a mint.json anywhere', () => {
    expect(findDocsRoot(BOTH_CONFIGS.paths)).toEqual({ root: 'site', config: 'docs.json' })
    expect(readPlan(BOTH_CONFIGS.paths, [])).toEqual(['site/docs.json'])
  })

  it('the folder holding the changed files wins first, a mint.json one too; docs.json only within a folder', () => {
    expect(findDocsRoot(BOTH_CONFIGS.paths, ['old.mdx'])).toEqual({ root: '', config: 'mint.json' })
    expect(readPlan(BOTH_CONFIGS.paths, ['old.mdx'])).toEqual(['mint.json'])
    expect(
      findDocsRoot(['docs/mint.json', 'docs/docs.json', 'docs/a.mdx'], ['docs/a.mdx'])
    ).toEqual({ root: 'docs', config: 'docs.json' })
  })

  it('is unsure, and says why, with no docs root or a site built from another folder', () => {
    expect(siteOf({ paths: ['README.md', 'a.mdx'], texts: {} }).unsure).toBe(
      'the repository holds no docs.json or mint.json'
    )
    expect(siteOf({ paths: ['a.mdx'], texts: {} }, [], true).unsure).toMatch(/too large/)
    expect(siteOf(GENERATED_SITE).unsure).toBe(
      'the navigation of docs.json names 6 pages no file under the repository root serves: the site seems built from another folder'
    )
    // A few pages named and missing are ordinary (a page on its way): not unsure.
    expect(siteOf(LANGUAGES_SITE).unsure).toBeUndefined()
  })

  it('a site whose files and navigation use capitals is served from its own folder', () => {
    const names = ['Getting-Started', 'API/Auth', 'API/Errors', 'Guides/SSO', 'Guides/Retry', 'FAQ']
    const site = siteOf({
      paths: ['docs.json', ...names.map(n => `${n}.mdx`)],
      texts: { 'docs.json': JSON.stringify({ navigation: { pages: names } }) }
    })
    expect(site.unsure).toBeUndefined()
  })
})

describe('the pages a pull request changed', () => {
  it('each once; a renamed page read at its old path before the merge, one that only moved said so', () => {
    const site = siteOf(LANGUAGES_SITE)
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
  })

  it('a redirect’s source is no page', () => {
    const site = siteOf(LANGUAGES_SITE)
    expect(sitePath('guides/retry.mdx', '')).toBe('/guides/retry')
    expect(pageOf(site, 'guides/retry.mdx')).toBeUndefined()
  })

  it('a page renamed with the redirect Mintlify recommends is read at its old path before the merge', () => {
    // The redirect from the old path describes the site after the merge; before it, the page was there.
    const site = siteOf(LANGUAGES_SITE)
    const changed = changedPages(site, [
      file('guides/sso.mdx', { status: 'renamed', previousPath: 'guides/retry.mdx', additions: 0 })
    ])
    expect(changed.pages).toEqual([{ path: '/guides/sso', before: '/guides/retry', moved: true }])
  })

  it('a spec change maps to the operations the navigation names from it, or to its whole spec', async () => {
    const site = siteOf(LANGUAGES_SITE)
    const changed = changedPages(site, [file('api/openapi.json')])
    expect(changed.operations).toEqual([
      { name: 'GET /users', spec: 'api/openapi.json' },
      { name: 'POST /users', spec: 'api/openapi.json' }
    ])
    expect(specsToRead(site, changed)).toEqual(['api/openapi.json'])
    const texts = new Map(Object.entries(LANGUAGES_SITE.texts))
    // The paths Mintlify documents: directory (api-reference), tag, summary as a slug.
    expect(await specPages(site, changed, texts)).toEqual({
      pages: [
        {
          path: '/api-reference/users/create-a-user-admins',
          before: '/api-reference/users/create-a-user-admins',
          moved: false
        },
        {
          path: '/api-reference/users/list-users',
          before: '/api-reference/users/list-users',
          moved: false
        }
      ],
      operations: [],
      wholeSpecs: []
    })
    // A spec that cannot be read leaves its operations named, unmeasured.
    expect(
      (await specPages(site, changed, new Map([['api/openapi.json', ': not [ a spec']]))).operations
    ).toHaveLength(2)
    const legacy = siteOf(LEGACY_SITE)
    const spec = changedPages(legacy, [file('docs/openapi.yaml')])
    expect(spec.wholeSpecs).toEqual(['openapi.yaml'])
    expect(specsToRead(legacy, spec)).toEqual(['docs/openapi.yaml'])
    // YAML; the `directory` of the openapi field; no summary: method and path; x-mint.href wins.
    expect(
      (await specPages(legacy, spec, new Map(Object.entries(LEGACY_SITE.texts)))).pages.map(
        p => p.path
      )
    ).toEqual(['/reference/get-v2-items-parts', '/reference/v2'])
    expect(changedPages(legacy, [file('docs/introduction.mdx')]).wholeSpecs).toEqual([])
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
    const shallow = `{"navigation":${'{"groups":['.repeat(10)}{"pages":["deep"]}${']}'.repeat(10)}}`
    expect(readNavigation(shallow).pages).toEqual(['deep'])
  })
})
