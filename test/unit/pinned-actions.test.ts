import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { markdownFiles, yamlBlocks } from '../support/markdown.js'
import { ROOT } from '../support/run-action.js'
import { USES_MAJOR } from '../../src/agent/names.js'

/**
 * Every `uses:` a reader may copy or that runs here names a full commit SHA with its version in a
 * comment (`actions/checkout@<40 hex> # v5.1.0`): a tag can be moved or replaced, a commit cannot,
 * and Dependabot updates the SHA and the comment together. Excepted: local actions (`./`), docker
 * images, and this repository's own actions at their major tag (`mintlify/agent-action@v2`, also
 * its sub-actions, `/changes`, `/review`, `/impact`, `/gaps` and `/visitors`): the examples name the tag the release workflow moves, and the README
 * says how to pin them by SHA instead (which this check accepts too).
 */

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')
const ymlIn = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir))
    .filter(f => /\.ya?ml$/.test(f))
    .map(f => `${dir}/${f}`)

const USES = /^\s*(?:-\s+)?uses:\s*(['"]?)([^'"\s#]+)\1\s*(?:#\s*(.*?))?\s*$/
const PINNED = /^([\w.-]+\/[\w.-]+)(?:\/[\w./-]+)?@([0-9a-f]{40})$/
const VERSION = /^v\d+(?:\.\d+){0,2}(?:-[\w.]+)?$/
const OWN = /^mintlify\/agent-action(?:\/(?:changes|review|impact|gaps|visitors))?@v\d+$/

/**
 * The major version the README and docs describe: package.json's, or the next one when CHANGELOG.md's
 * Unreleased section has a Breaking part (the next release is that major, and the docs already
 * describe it).
 */
function documentedMajor(
  changelog = read('CHANGELOG.md'),
  version = (JSON.parse(read('package.json')) as { version: string }).version
): number {
  const unreleased = changelog.split(/^## \[Unreleased\]$/m)[1]?.split(/^## /m)[0] ?? ''
  return Number(version.split('.')[0]) + (/^### Breaking/m.test(unreleased) ? 1 : 0)
}

/** The uses of this repository's own actions that name another major tag than `major`. */
function otherMajors(uses: readonly Use[], major: number): string[] {
  return uses
    .filter(u => OWN.test(u.uses) && !u.uses.endsWith(`@v${major}`))
    .map(u => `${u.where}: '${u.uses}' is not @v${major}, the version the docs describe`)
}

interface Use {
  where: string
  uses: string
  comment: string
}

/** The `uses:` lines of a text, with where each is (`file:line`) and its comment. */
function usesOf(text: string, file: string, firstLine = 1): Use[] {
  return text.split('\n').flatMap((line, i) => {
    const m = USES.exec(line)
    return m ? [{ where: `${file}:${firstLine + i}`, uses: m[2] ?? '', comment: m[3] ?? '' }] : []
  })
}

/** What is wrong with each use, one line each; the repository's pins per action, to compare. */
function pinProblems(uses: readonly Use[]): string[] {
  const problems: string[] = []
  const pins = new Map<string, { pin: string; where: string }>()
  for (const { where, uses: ref, comment } of uses) {
    if (ref.startsWith('./') || ref.startsWith('docker://') || OWN.test(ref)) continue
    const pinned = PINNED.exec(ref)
    if (!pinned) {
      problems.push(`${where}: '${ref}' is not pinned to a full commit SHA`)
      continue
    }
    if (!VERSION.test(comment)) {
      problems.push(`${where}: '${ref}' has no version comment (# v1.2.3)`)
      continue
    }
    const action = pinned[1] as string
    const pin = `${pinned[2]} # ${comment}`
    const earlier = pins.get(action)
    if (!earlier) pins.set(action, { pin, where })
    else if (earlier.pin !== pin)
      problems.push(
        `${where}: ${action} is pinned to ${pin}, but to ${earlier.pin} at ${earlier.where}`
      )
  }
  return problems
}

// Every line of every Markdown file, not only its yaml blocks: a step in a block of another language
// is copied as often.
const markdownUses = markdownFiles().flatMap(file => usesOf(read(file), file))
const workflowUses = [
  ...ymlIn('examples'),
  ...ymlIn('.github/workflows'),
  'action.yml',
  'gaps/action.yml',
  'visitors/action.yml'
].flatMap(file => usesOf(read(file), file))

describe('every third-party action is pinned to a commit SHA with its version', () => {
  it('finds the uses in the Markdown, the examples and the workflows', () => {
    expect(markdownUses.length).toBeGreaterThanOrEqual(8)
    expect(workflowUses.filter(u => u.where.startsWith('examples/')).length).toBeGreaterThanOrEqual(
      12
    )
    const thirdParty = [...markdownUses, ...workflowUses].filter(
      u => !u.uses.startsWith('./') && !OWN.test(u.uses)
    )
    for (const action of ['actions/checkout', 'actions/setup-node', 'github/codeql-action'])
      expect(thirdParty.some(u => u.uses.startsWith(`${action}`))).toBe(true)
  })

  it('in the README and the docs', () => {
    expect(pinProblems(markdownUses)).toEqual([])
  })

  it('in the examples and the workflows, one pin per action across the repository', () => {
    expect(pinProblems([...workflowUses, ...markdownUses])).toEqual([])
  })

  it('the check can fail: a tag, a short SHA, no comment, two pins of one action', () => {
    const sha = 'fbc6f3992d24b796d5a048ff273f7fcc4a7b6c09'
    const text = [
      'steps:',
      '  - uses: actions/checkout@v5',
      `  - uses: actions/setup-node@${sha.slice(0, 7)} # v5.0.0`,
      `  - uses: actions/upload-artifact@${sha}`,
      `  - uses: 'actions/checkout@${sha}' # v5.1.0`,
      `  - uses: actions/checkout@${'0'.repeat(40)} # v5.1.0`,
      '  - uses: ./gaps',
      '  - uses: docker://alpine:3',
      '  - uses: mintlify/agent-action/visitors@v1',
      '  - uses: mintlify/agent-action@main',
      '  - uses: mintlify/other-action@v1'
    ].join('\n')
    expect(pinProblems(usesOf(text, 'x.yml'))).toEqual([
      "x.yml:2: 'actions/checkout@v5' is not pinned to a full commit SHA",
      "x.yml:3: 'actions/setup-node@fbc6f39' is not pinned to a full commit SHA",
      `x.yml:4: 'actions/upload-artifact@${sha}' has no version comment (# v1.2.3)`,
      `x.yml:6: actions/checkout is pinned to ${'0'.repeat(40)} # v5.1.0, but to ${sha} # v5.1.0 at x.yml:5`,
      "x.yml:10: 'mintlify/agent-action@main' is not pinned to a full commit SHA",
      "x.yml:11: 'mintlify/other-action@v1' is not pinned to a full commit SHA"
    ])
  })

  it("this repository's own actions are named at the major the docs describe", () => {
    expect(documentedMajor()).toBe(2)
    // The major the action's own messages name (`uses: mintlify/agent-action/review@v2`).
    expect(USES_MAJOR).toBe(`v${documentedMajor()}`)
    expect(otherMajors([...markdownUses, ...workflowUses], documentedMajor())).toEqual([])
  })

  it('the documented major: the next one while the Unreleased section is breaking', () => {
    const changelog = (unreleased: string): string =>
      `# Changelog\n\n## [Unreleased]\n\n${unreleased}\n## [1.0.0] - 2026-01-01\n\n### Breaking\n`
    expect(documentedMajor(changelog('### Added\n\n- x\n'), '1.4.0')).toBe(1)
    expect(documentedMajor(changelog('### Breaking (v2)\n\n- x\n'), '1.4.0')).toBe(2)
    expect(documentedMajor(changelog(''), '2.0.0')).toBe(2)
    const uses = usesOf(
      '- uses: mintlify/agent-action@v1\n- uses: mintlify/agent-action/gaps@v2\n',
      'x.yml'
    )
    expect(otherMajors(uses, 2)).toEqual([
      "x.yml:1: 'mintlify/agent-action@v1' is not @v2, the version the docs describe"
    ])
  })

  it('the README says how to pin this action by SHA and keep it current with Dependabot', () => {
    const readme = read('README.md')
    expect(readme).toMatch(
      new RegExp(`mintlify/agent-action@<[^>]*sha[^>]*> # v${documentedMajor()}\\.\\d+\\.\\d+`, 'i')
    )
    const dependabot = yamlBlocks('README.md').find(b => /package-ecosystem:/.test(b.text))
    expect(dependabot?.text).toMatch(/package-ecosystem: github-actions/)
  })
})
