import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { anchors, isRelative, links, markdownFiles, yamlBlocks } from '../support/markdown.js'
import { ROOT } from '../support/run-action.js'
import { actionFileOf, checkWithKeys } from '../support/with-keys.js'

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')
const docsPages = readdirSync(path.join(ROOT, 'docs'))
  .filter(f => f.endsWith('.md'))
  .map(f => `docs/${f}`)
const examples = readdirSync(path.join(ROOT, 'examples'))
  .filter(f => f.endsWith('.yml'))
  .map(f => `examples/${f}`)

describe('with: keys given to this repository’s actions', () => {
  const sources = [
    ...markdownFiles().flatMap(file =>
      yamlBlocks(file).map(b => ({ name: b.name, file, line: b.line, text: b.text }))
    ),
    ...examples.map(file => ({ name: file, file, line: 1, text: read(file) }))
  ]
  const results = sources.map(s => ({ ...s, ...checkWithKeys(s.text, s.file, s.line) }))

  it('finds the uses in the examples and in the Markdown', () => {
    const uses = results.flatMap(r => r.uses.map(u => ({ ...u, file: r.file })))
    expect(uses.filter(u => u.file.startsWith('examples/')).length).toBeGreaterThanOrEqual(12)
    expect(uses.filter(u => u.file.endsWith('.md')).length).toBeGreaterThanOrEqual(8)
    for (const action of [
      'mintlify/agent-action@',
      '/changes@',
      '/review@',
      '/impact@',
      '/visitors@',
      '/gaps@'
    ])
      expect(
        uses.some(u => u.uses.includes(action)),
        action
      ).toBe(true)
    // The annotated block of every input in the reference is checked like any other.
    expect(uses.some(u => u.file === 'docs/reference.md' && u.keys.includes('poll-interval'))).toBe(
      true
    )
  })

  it.each(results.map(r => [r.name, r] as const))('%s uses only declared inputs', (_n, r) => {
    expect(r.problems).toEqual([])
  })

  it('fails on an unknown key, naming the file, the line and the key', () => {
    const text = [
      'steps:',
      '  - uses: mintlify/agent-action@v1',
      '    with:',
      '      api-key: x',
      '      fold-mode: never',
      '  - uses: ./visitors',
      '    with:',
      '      prompt: no such input here',
      '  - uses: mintlify/agent-action/nowhere@v1',
      '  - uses: actions/checkout@v5',
      '    with:',
      '      anything: goes'
    ].join('\n')
    expect(checkWithKeys(text, 'README.md', 40).problems).toEqual([
      "README.md:44: 'fold-mode' is not an input of mintlify/agent-action@v1 (action.yml)",
      "README.md:47: 'prompt' is not an input of ./visitors (visitors/action.yml)",
      "README.md:48: 'mintlify/agent-action/nowhere@v1' names no action of this repository"
    ])
  })

  it('knows every way to name the three actions', () => {
    expect(actionFileOf('mintlify/agent-action@v1')).toBe('action.yml')
    expect(actionFileOf('mintlify/agent-action@0123456789abcdef0123456789abcdef01234567')).toBe(
      'action.yml'
    )
    expect(actionFileOf('mintlify/agent-action/visitors@v1.2.3')).toBe('visitors/action.yml')
    expect(actionFileOf('mintlify/agent-action/gaps@v1')).toBe('gaps/action.yml')
    expect(actionFileOf('./')).toBe('action.yml')
    expect(actionFileOf('./gaps')).toBe('gaps/action.yml')
    expect(actionFileOf('./visitors/')).toBe('visitors/action.yml')
    expect(actionFileOf('actions/checkout@v5')).toBeUndefined()
    expect(actionFileOf('mintlify/other-action@v1')).toBeUndefined()
  })
})

describe("the README: a new user's first screens", () => {
  const readme = read('README.md')
  const lines = readme.split('\n')

  it('shows a copyable workflow within its first 25 lines', () => {
    const first = lines.findIndex(l => l.startsWith('```yaml'))
    expect(first).toBeGreaterThan(0)
    expect(first).toBeLessThan(25)
    const block = yamlBlocks('README.md')[0]
    expect(block?.kind).toBe('workflow')
    expect(block?.text).toMatch(/uses: mintlify\/agent-action@/)
  })

  it('keeps the commands under "Try it locally", installing once', () => {
    const section = readme.split(/^## /m).find(part => part.startsWith('Try it locally')) ?? ''
    const commands = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
    expect(commands.match(/^npm ci\b/gm)).toHaveLength(1)
    expect(commands).toMatch(/^npm start\b/m)
    expect(commands).toMatch(/^npm test\b/m)
  })

  it('stays a few screens long: the details live in docs/ and examples/', () => {
    expect(lines.length).toBeLessThanOrEqual(420)
  })

  it('shows every picture of docs/', () => {
    const pictures = readdirSync(path.join(ROOT, 'docs')).filter(f => f.endsWith('.png'))
    expect(pictures.length).toBeGreaterThanOrEqual(10)
    for (const picture of pictures) expect(readme).toContain(`(docs/${picture})`)
  })

  it('says what docs-token needs write access for, and what relabeling is', () => {
    const row = lines.find(l => l.includes('(folding, relabeling)'))
    expect(row).toMatch(/`docs-token`: read access/)
    expect(row).toMatch(/write for `expire-after`/)
    expect(readme).toMatch(/\*\*Relabeling\*\* is adding the label again/)
    expect(readme).toMatch(/A `docs-token` that can write .*comment/s)
  })
})

describe('links between the README and docs/', () => {
  it('there are the seven docs pages', () => {
    expect(docsPages.sort()).toEqual([
      'docs/architecture.md',
      'docs/performance.md',
      'docs/proxy-and-enterprise.md',
      'docs/recipes.md',
      'docs/reference.md',
      'docs/retries-and-rate-limits.md',
      'docs/security.md'
    ])
  })

  it.each(docsPages)('the README links %s, and it links back to the README', page => {
    const targets = (file: string): string[] =>
      links(read(file))
        .filter(l => isRelative(l.target))
        .map(l => path.posix.join(path.posix.dirname(file), l.target.split('#')[0] as string))
    expect(targets('README.md')).toContain(page)
    expect(targets(page)).toContain('README.md')
  })

  it('the README links CONTRIBUTING.md, and CONTRIBUTING.md links the README', () => {
    expect(links(read('README.md')).map(l => l.target)).toContain('CONTRIBUTING.md')
    expect(links(read('CONTRIBUTING.md')).map(l => l.target)).toContain('README.md')
  })

  // Every Markdown file's relative links: the file exists, and a #heading exists in it.
  const relative = markdownFiles().flatMap(file =>
    links(read(file))
      .filter(l => isRelative(l.target))
      .map(l => [`${file}:${l.line} → ${l.target}`, file, l.target] as const)
  )

  it('there are relative links to check', () => expect(relative.length).toBeGreaterThan(50))

  it.each(relative)('%s resolves', (_name, file, target) => {
    const [filePart = '', anchor] = target.split('#')
    const resolved = filePart ? path.posix.join(path.posix.dirname(file), filePart) : file
    expect(resolved.startsWith('..'), `${resolved} is outside the repository`).toBe(false)
    expect(existsSync(path.join(ROOT, resolved)), `${resolved} does not exist`).toBe(true)
    if (anchor !== undefined) {
      expect(statSync(path.join(ROOT, resolved)).isFile()).toBe(true)
      expect(resolved.endsWith('.md'), `#${anchor} in a file that is not Markdown`).toBe(true)
      expect([...anchors(read(resolved))], `no heading #${anchor} in ${resolved}`).toContain(
        decodeURIComponent(anchor)
      )
    }
  })

  it('reads anchors as GitHub makes them', () => {
    const page = '# What `result` means\n```yaml\n# not: a heading\n```\n## Notes\n## Notes\n'
    expect([...anchors(page)]).toEqual(['what-result-means', 'notes', 'notes-1'])
  })
})

describe('docs/performance.md', () => {
  const page = read('docs/performance.md')
  const results = read('bench/results.md')

  /** The numbers a text holds, as written: 3.29, 122, 2,000, 4–5 (two numbers). */
  const numbers = (text: string): string[] =>
    [...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map(m => (m[0] as string).replace(/,/g, ''))
  const measured = numbers(results).map(Number)
  /** A figure is one of `among` when one of them, rounded as the figure is written, equals it. */
  const oneOf = (figure: string, among: readonly number[]): boolean => {
    const decimals = figure.split('.')[1]?.length ?? 0
    return among.some(m => m.toFixed(decimals) === Number(figure).toFixed(decimals))
  }
  const fromResults = (figure: string): boolean => oneOf(figure, measured)

  it('names the run bench/results.md describes', () => {
    const [, node, machine, date] = /^Node (\S+), (.+?), (\d{4}-\d{2}-\d{2})\./m.exec(results) ?? []
    expect(page).toContain(`Measured on Node ${node}, ${machine}, ${date}`)
    const goals = /^All (\d+) goals met\.$/m.exec(results)?.[1]
    expect(goals, 'bench/results.md says all goals were met').toBeDefined()
    expect(page).toContain(`all ${goals} goals met`)
  })

  it('shows only figures that bench/results.md holds', () => {
    const table = page
      .split('\n')
      .filter(line => line.startsWith('| ') && !line.startsWith('| what'))
    expect(table.length).toBeGreaterThanOrEqual(8)
    const figures = table.flatMap(line => numbers(line))
    expect(figures.length).toBeGreaterThan(30)
    expect(figures.filter(f => !fromResults(f))).toEqual([])
  })

  it('the check can fail: a figure that no run measured', () => {
    const run = [3.29, 121.6, 4.09, 130.4]
    expect(oneOf('3.29', run)).toBe(true)
    expect(oneOf('122', run)).toBe(true)
    expect(oneOf('4.1', run)).toBe(true)
    expect(oneOf('3.17', run)).toBe(false)
    expect(oneOf('131', run)).toBe(false)
  })
})

describe('the least-privilege table (docs/security.md)', () => {
  const page = read('docs/security.md')
  const header = page.split('\n').findIndex(l => /^\| feature\s+\| workflow `permissions:`/.test(l))
  const table = page
    .split('\n')
    .slice(header)
    .filter((l, i, all) => all.slice(0, i + 1).every(x => x.startsWith('|')))
    .join('\n')
  const inputs = (file: string): [string, string][] =>
    Object.entries(
      (parse(read(file)) as { inputs: Record<string, { description: string }> }).inputs
    ).map(([name, input]) => [name, input.description])

  it('has a row for every feature that needs a permission or docs-token, and the sub-actions', () => {
    expect(header).toBeGreaterThan(0)
    // Inputs whose description names docs-token or a GitHub permission, less the token and
    // permission inputs themselves (the table's columns).
    // The policy file's keys count too: expire-after and reviewers need docs-token, as before.
    const schema = JSON.parse(read('schema/docs-agent.schema.json')) as {
      properties: Record<string, { description: string }>
    }
    const keys = Object.entries(schema.properties).map(
      ([name, key]) => [name, key.description] as [string, string]
    )
    const needing = ['action.yml', 'changes/action.yml', 'review/action.yml', 'impact/action.yml']
      .flatMap(inputs)
      .concat(keys)
      .filter(([, d]) =>
        /docs-token|(issues|contents|pull.requests):? (read|write)|pull requests (read|write)/i.test(
          d
        )
      )
      .map(([name]) => name)
      .filter(name => !['github-token', 'docs-token', 'required-permission'].includes(name))
      .filter((name, i, all) => all.indexOf(name) === i)
    expect(needing.length).toBeGreaterThanOrEqual(6)
    // The sub-action's inputs that read GitHub (github-token's description names them).
    const gapsToken = inputs('gaps/action.yml').find(([name]) => name === 'github-token')?.[1] ?? ''
    const gapsNeeding = inputs('gaps/action.yml')
      .map(([name]) => name)
      .filter(name => name !== 'github-token' && gapsToken.includes(name))
    expect(gapsNeeding).toContain('changes-since')
    for (const name of [
      ...needing,
      ...gapsNeeding,
      'visitors sub-action',
      'gaps sub-action',
      'prompt-file',
      'issue-number'
    ])
      expect(table, name).toMatch(new RegExp(`\\b${name}\\b`))
  })

  it('needs no personal access token: docs-token comes from a GitHub App everywhere it is set', () => {
    expect(page).toContain('No feature needs a personal access token.')
    expect(read('README.md')).toMatch(
      /No\s+feature\s+needs\s+a\s+personal\s+access\s+token:\s+\[make\s+a\s+GitHub\s+App\]\(docs\/security\.md#github-apps\)/
    )
    // The App's set-up: created, installed, its client ID and key stored where the workflows run.
    const apps = page.split(/^### GitHub Apps$/m)[1]?.split(/^##/m)[0] ?? ''
    for (const step of [
      'New\nGitHub App',
      'Generate a private key',
      'Install App',
      'gh secret set'
    ])
      expect(apps.replace(/\s+/g, ' ')).toContain(step.replace(/\s+/g, ' '))
    expect(apps).toMatch(/gh variable set DOCS_APP_CLIENT_ID/)
    const sources = [
      ...markdownFiles().flatMap(file =>
        yamlBlocks(file).map(b => ({ name: b.name, text: b.text }))
      ),
      ...examples.map(file => ({ name: file, text: read(file) }))
    ]
    const settings = sources.flatMap(s =>
      [...s.text.matchAll(/^\s*docs-token:\s*(.+)$/gm)].map(m => ({
        name: s.name,
        value: m[1] ?? ''
      }))
    )
    expect(settings.length).toBeGreaterThanOrEqual(4)
    for (const { name, value } of settings) {
      expect(value, name).toMatch(/^\$\{\{ steps\.([\w-]+)\.outputs\.token \}\}/)
      const step = /steps\.([\w-]+)\./.exec(value)?.[1] as string
      const text = sources.find(s => s.name === name)?.text ?? ''
      expect(text, name).toMatch(
        new RegExp(
          `uses: actions/create-github-app-token@[0-9a-f]{40} # v[\\d.]+\\n\\s+id: ${step}\\n`
        )
      )
    }
  })
})
