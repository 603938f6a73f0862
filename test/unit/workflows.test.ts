import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { validateAction, validateWorkflow } from '@action-validator/core'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ROOT } from '../support/run-action.js'

const examples = readdirSync(path.join(ROOT, 'examples')).filter(f => f.endsWith('.yml'))
const workflows = [
  ...examples.map(f => path.join('examples', f)),
  ...readdirSync(path.join(ROOT, '.github', 'workflows')).map(f =>
    path.join('.github', 'workflows', f)
  )
]

type Step = { run?: string; uses?: string; with?: Record<string, string> }
type Workflow = { permissions?: unknown; jobs: Record<string, { steps: Step[] }> }

describe('example and CI workflows', () => {
  it('there are examples to check', () => expect(examples.length).toBeGreaterThanOrEqual(3))

  it.each(workflows)('%s is a valid workflow', file => {
    const state = validateWorkflow(readFileSync(path.join(ROOT, file), 'utf8'))
    expect(state.errors).toEqual([])
  })

  it.each(workflows)('%s puts no event or step-output text into a run: script', file => {
    const workflow = parse(readFileSync(path.join(ROOT, file), 'utf8')) as Workflow
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps) {
        // Untrusted text (issue titles, comments, outputs built from them) reaches scripts only through env:.
        expect(step.run ?? '').not.toMatch(/\$\{\{\s*(github\.event|steps\.|inputs\.|needs\.)/)
      }
    }
  })

  it.each(examples)('examples/%s sets a permissions block', file => {
    const workflow = parse(readFileSync(path.join(ROOT, 'examples', file), 'utf8')) as Workflow
    expect(workflow.permissions).toBeDefined()
  })

  it('the validator catches a broken workflow (the check can fail)', () => {
    expect(validateWorkflow('on: push\njobs:\n  x:\n    steps: 3\n').errors.length).toBeGreaterThan(
      0
    )
  })

  it.each(['action.yml', 'visitors/action.yml', 'gaps/action.yml'])(
    '%s is a valid action',
    file => {
      const text = readFileSync(path.join(ROOT, file), 'utf8')
      expect(text).toMatch(/^ {2}using: node24$/m)
      // The validator's schema predates node24; check everything else against it.
      const state = validateAction(text.replace(/^( {2}using:) node24$/m, '$1 node20'))
      expect(state.errors).toEqual([])
    }
  )
})
