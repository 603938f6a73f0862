import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { validateAction, validateWorkflow } from '@action-validator/core'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { actionlint } from '../support/actionlint.js'
import { markdownFiles, yamlBlocks } from '../support/markdown.js'
import { ROOT } from '../support/run-action.js'

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')
const examples = readdirSync(path.join(ROOT, 'examples')).filter(f => f.endsWith('.yml'))
const workflowFiles = [
  ...examples.map(f => path.join('examples', f)),
  ...readdirSync(path.join(ROOT, '.github', 'workflows')).map(f =>
    path.join('.github', 'workflows', f)
  )
]

type Step = { run?: string; uses?: string; with?: Record<string, string> }
type Workflow = { permissions?: unknown; jobs: Record<string, { steps: Step[] }> }

/** Steps on their own, as the one job of a workflow, so actionlint can check them. */
const asWorkflow = (steps: string): string =>
  stringify({
    on: 'workflow_dispatch',
    permissions: {},
    jobs: { check: { 'runs-on': 'ubuntu-latest', steps: parse(steps) as unknown } }
  })

describe('example and CI workflows', () => {
  it('there are examples to check', () => expect(examples.length).toBeGreaterThanOrEqual(9))

  it.each(workflowFiles)('%s passes actionlint', async file => {
    expect(await actionlint(read(file), file)).toEqual([])
  })

  it.each(workflowFiles)('%s is valid against the workflow schema', file => {
    expect(validateWorkflow(read(file)).errors).toEqual([])
  })

  it.each(workflowFiles)('%s puts no event or step-output text into a run: script', file => {
    expectNoExpressionInRun(parse(read(file)) as Workflow)
  })

  it.each(examples)('examples/%s sets a permissions block', file => {
    const workflow = parse(read(path.join('examples', file))) as Workflow
    expect(workflow.permissions).toBeDefined()
  })

  it('the checks can fail: actionlint and the schema catch broken workflows', async () => {
    expect(validateWorkflow('on: push\njobs:\n  x:\n    steps: 3\n').errors.length).toBeGreaterThan(
      0
    )
    // The README's old manual run: an unquoted ': ' in a plain scalar is not YAML.
    const unquoted =
      'on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "Docs pull request: $PR"\n'
    expect(await actionlint(unquoted, 'bad.yml')).toEqual([
      expect.stringMatching(/^bad\.yml:6:0: could not parse as YAML.*\[syntax-check\]$/)
    ])
    // actionlint 1.7 knows `vars`, and still catches an unknown context.
    const contexts =
      'on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "$A $B"\n        env:\n          A: ${{ vars.X }}\n          B: ${{ nope.y }}\n'
    expect(await actionlint(contexts, 'ctx.yml')).toEqual([
      expect.stringContaining('undefined variable "nope"')
    ])
  })

  it.each(['action.yml', 'visitors/action.yml', 'gaps/action.yml'])(
    '%s is a valid action',
    file => {
      const text = read(file)
      expect(text).toMatch(/^ {2}using: node24$/m)
      // The validator's schema predates node24; check everything else against it.
      const state = validateAction(text.replace(/^( {2}using:) node24$/m, '$1 node20'))
      expect(state.errors).toEqual([])
    }
  )
})

describe('the YAML blocks of every Markdown file', () => {
  const files = markdownFiles()
  const blocks = files.flatMap(file => yamlBlocks(file))

  it('reads the README, CONTRIBUTING.md and the docs pages, and no installed package', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md']))
    expect(files.filter(f => f.startsWith('docs/')).length).toBeGreaterThanOrEqual(5)
    expect(files.some(f => f.includes('node_modules'))).toBe(false)
  })

  it('there are workflows and steps among them', () => {
    expect(blocks.filter(b => b.kind === 'workflow').length).toBeGreaterThanOrEqual(1)
    expect(blocks.filter(b => b.kind === 'steps').length).toBeGreaterThanOrEqual(6)
  })

  it.each(blocks.map(b => [b.name, b] as const))('%s parses as YAML', (_name, block) => {
    expect(() => parse(block.text)).not.toThrow()
  })

  it.each(blocks.filter(b => b.kind === 'workflow').map(b => [b.name, b] as const))(
    '%s is a workflow that passes actionlint and writes no expression into run:',
    async (name, block) => {
      expect(await actionlint(block.text, name)).toEqual([])
      expectNoExpressionInRun(parse(block.text) as Workflow)
    }
  )

  it.each(blocks.filter(b => b.kind === 'steps').map(b => [b.name, b] as const))(
    '%s: steps that pass actionlint inside a job and write no expression into run:',
    async (name, block) => {
      expect(await actionlint(asWorkflow(block.text), name)).toEqual([])
      expectNoExpressionInRun({ jobs: { check: { steps: parse(block.text) as Step[] } } })
    }
  )

  // A block that names its file on its first line must be what the file says.
  const copies = blocks.flatMap(b => {
    const file = /^# (examples\/[\w.-]+\.yml)\n/.exec(b.text)?.[1]
    return file ? [[b.name, file, b] as const] : []
  })
  it.each(copies)('%s is %s, comments aside', (_name, file, block) => {
    expect(parse(block.text)).toEqual(parse(read(file)))
  })

  it.each(examples)('the README links examples/%s', file => {
    expect(read('README.md')).toContain(`(examples/${file})`)
  })
})

function expectNoExpressionInRun(workflow: Workflow): void {
  for (const job of Object.values(workflow.jobs)) {
    for (const step of job.steps) {
      // Untrusted text (issue titles, comments, outputs built from them) reaches scripts only through env:.
      expect(step.run ?? '').not.toMatch(/\$\{\{\s*(github\.event|steps\.|inputs\.|needs\.)/)
    }
  }
}
