import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { Defaults, Output } from '../../src/agent/names.js'
import { PromptInputs } from '../../src/prompt/names.js'
import { ChangesInputs } from '../../src/changes/names.js'
import { ReviewInputs } from '../../src/review/names.js'
import { ImpactInputs, ImpactOutput } from '../../src/impact/names.js'
import { VisitorsDefaults, VisitorsInput, VisitorsOutput } from '../../src/visitors/names.js'
import { GapsDefaults, GapsInput, GapsOutput } from '../../src/gaps/names.js'
import { ENTRIES } from '../../scripts/entries.mjs'
import { ACTION_VERSION } from '../../src/runner/runner.js'
import { REFERENCE, renderTables, unpadTables } from '../../scripts/reference-tables.js'
import { ROOT } from '../support/run-action.js'
import type { Result } from '../../src/agent/outcome.js'

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')
type ActionYaml = {
  name: string
  description: string
  author: string
  branding: { icon: string; color: string }
  inputs: Record<string, { required?: boolean; default?: string; description: string }>
  outputs: Record<string, { description: string }>
  runs: { using: string; main: string; post?: string }
}

const ACTIONS = [
  {
    file: 'action.yml',
    inputs: PromptInputs.names,
    outputs: Output,
    defaults: PromptInputs.defaults as Record<string, string>
  },
  {
    file: 'changes/action.yml',
    inputs: ChangesInputs.names,
    outputs: Output,
    defaults: ChangesInputs.defaults as Record<string, string>
  },
  {
    file: 'review/action.yml',
    inputs: ReviewInputs.names,
    outputs: Output,
    defaults: ReviewInputs.defaults as Record<string, string>
  },
  {
    file: 'impact/action.yml',
    inputs: ImpactInputs.names,
    outputs: { result: Output.Result, ...ImpactOutput },
    defaults: ImpactInputs.defaults as Record<string, string>
  },
  {
    file: 'visitors/action.yml',
    inputs: VisitorsInput,
    outputs: VisitorsOutput,
    defaults: { ...VisitorsDefaults, 'api-url': Defaults['api-url'] } as Record<string, string>
  },
  {
    file: 'gaps/action.yml',
    inputs: GapsInput,
    outputs: GapsOutput,
    defaults: { ...GapsDefaults, 'api-url': Defaults['api-url'] } as Record<string, string>
  }
]

describe.each(ACTIONS)('$file', ({ file, inputs, outputs, defaults }) => {
  const action = parse(read(file)) as ActionYaml

  it('runs its committed bundle on node24', () => {
    expect(action.runs.using).toBe('node24')
    const bundles = [action.runs.main, action.runs.post]
      .filter(f => f !== undefined)
      .map(f => path.join(path.dirname(file), f))
    expect(bundles).toEqual(
      ENTRIES.filter(e => e.actions.includes(file)).map(e => path.join('dist', e.out))
    )
    for (const bundle of bundles)
      expect(readFileSync(path.join(ROOT, bundle)).length).toBeGreaterThan(0)
    expect(
      action.name &&
        action.description &&
        action.author &&
        action.branding.icon &&
        action.branding.color
    ).toBeTruthy()
  })

  it('declares exactly the inputs and outputs the code uses', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(Object.values(inputs).sort())
    expect(Object.keys(action.outputs ?? {}).sort()).toEqual(Object.values(outputs).sort())
  })

  it('has the same defaults as the code', () => {
    const declared = Object.fromEntries(
      Object.entries(action.inputs)
        .filter(([, i]) => i.default !== undefined)
        .map(([n, i]) => [n, i.default])
    )
    // Defaults the runner fills from an expression; the code reads the resolved value.
    const fromRunner =
      file === 'visitors/action.yml' ? {} : { 'github-token': '${{ github.token }}' }
    expect(declared).toEqual({ ...defaults, ...fromRunner })
    expect(
      Object.entries(action.inputs)
        .filter(([, i]) => i.required)
        .map(([n]) => n)
    ).toEqual([
      'api-key',
      'project-id',
      // The review and impact sub-actions do nothing without the docs repository's token.
      ...(['review/action.yml', 'impact/action.yml'].includes(file) ? ['docs-token'] : [])
    ])
  })

  it('describes every input and output', () => {
    for (const entry of [...Object.values(action.inputs), ...Object.values(action.outputs ?? {})]) {
      expect(entry.description.length).toBeGreaterThan(10)
    }
  })
})

describe(REFERENCE, () => {
  it('has inputs and outputs tables generated from action.yml', () => {
    const reference = read(REFERENCE)
    for (const { file, outputs } of ACTIONS) {
      expect(reference).toContain(`<!-- inputs: ${file} -->`)
      if (Object.keys(outputs).length) expect(reference).toContain(`<!-- outputs: ${file} -->`)
    }
    // The annotated `with:` block of every input, generated like the tables.
    expect(reference).toContain('<!-- usage: action.yml -->')
    for (const name of Object.keys((parse(read('action.yml')) as ActionYaml).inputs))
      expect(reference).toMatch(new RegExp(`^ {4}(# )?${name}:`, 'm'))
    expect(
      unpadTables(renderTables(reference)),
      `${REFERENCE}: the tables are stale: run 'npm run reference'`
    ).toBe(unpadTables(reference))
  })

  it('fills a pair of empty markers without touching the next pair', () => {
    const text = [
      '<!-- inputs: gaps/action.yml -->',
      '<!-- end -->',
      '',
      '<!-- outputs: gaps/action.yml -->',
      '<!-- end -->'
    ].join('\n')
    const rendered = renderTables(text)
    expect(rendered).toContain('| `max-requests` |')
    expect(rendered).toContain('| `unanswered` |')
    expect(rendered.match(/<!-- end -->/g)).toHaveLength(2)
  })

  it('the staleness check can fail: a changed description is noticed', () => {
    const reference = read(REFERENCE)
    const stale = reference.replace(
      /\| `poll-interval` +\|([^|]*)\|[^\n]*/,
      '| `poll-interval` |$1| An old description. |'
    )
    expect(stale).not.toBe(reference)
    expect(unpadTables(renderTables(stale))).not.toBe(unpadTables(stale))
  })
})

describe('the result words', () => {
  // Every word the type allows, checked by the compiler: a new word that is missing here fails the
  // type check, so it cannot be left out of the lists below.
  const words: Record<Result, true> = {
    'pr-opened': true,
    'no-changes': true,
    failed: true,
    archived: true,
    'timed-out': true,
    started: true,
    cancelled: true,
    skipped: true,
    'dry-run': true,
    waiting: true
  }
  const action = parse(read('action.yml')) as ActionYaml
  const readme = read('README.md')

  it.each(Object.keys(words))(
    "'%s' is in action.yml's result output, so in the reference, and in the README's table",
    word => {
      expect(action.outputs.result?.description).toMatch(new RegExp(`\\b${word}\\b`))
      expect(readme).toMatch(new RegExp(`^\\| \`${word}\` +\\|`, 'm'))
    }
  )
})

describe('CONTRIBUTING.md', () => {
  it('gives the commands, installing once', () => {
    const start = /## Start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(read('CONTRIBUTING.md'))?.[1] ?? ''
    expect(start.match(/^npm ci\b/gm)).toHaveLength(1)
    expect(start).toMatch(/^npm start\b/m)
    expect(start).toMatch(/^npm test\b/m)
  })
})

describe('package', () => {
  it('sends the package version in the User-Agent', () => {
    expect(ACTION_VERSION).toBe((JSON.parse(read('package.json')) as { version: string }).version)
  })
  it('keeps the runtime dependencies within the chosen set', () => {
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> }
    // The stack the action's design names; http-client for the toolkit's proxy rule (getProxyUrl);
    // request-error for the class Octokit's failures are (@actions/github does not export it);
    // plugin-throttling for GitHub's rate limits (what peter-evans/create-pull-request and the
    // `octokit` package use); picomatch for paths/paths-ignore; ignore for .mintignore (gitignore's
    // rules, as ESLint and Prettier read them); yaml for the OpenAPI specs in YAML whose operation
    // pages reader impact measures, and for the policy file; valibot for the schemas of the policy
    // file and of the ledger (types inferred from them, smallest start-up cost of the schema
    // libraries measured).
    // Each further one needs its reason in its commit message.
    expect(Object.keys(pkg.dependencies).sort()).toEqual(
      [
        '@actions/core',
        '@actions/github',
        '@actions/http-client',
        '@octokit/plugin-throttling',
        '@octokit/request-error',
        'ignore',
        'picomatch',
        'undici',
        'valibot',
        'yaml'
      ].filter(name => name in pkg.dependencies)
    )
  })
  it('bundles one copy of Octokit, shared with @actions/github', () => {
    // @octokit/core's User-Agent suffix appears once per bundled copy.
    const copies = ENTRIES.map(
      e => read(path.join('dist', e.out)).split('octokit-core.js/').length - 1
    )
    expect(Math.max(...copies)).toBe(1)
    expect(copies[ENTRIES.findIndex(e => e.out === 'index.js')]).toBe(1)
  })
})
