import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { Defaults, Input, Output } from '../../src/names.js'
import { ACTION_VERSION } from '../../src/version.js'
import { renderReadme, unpadTables } from '../../scripts/readme-tables.js'
import { ROOT } from '../support/run-action.js'

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')
const action = parse(read('action.yml')) as {
  name: string
  description: string
  author: string
  branding: { icon: string; color: string }
  inputs: Record<string, { required?: boolean; default?: string; description: string }>
  outputs: Record<string, { description: string }>
  runs: { using: string; main: string }
}

describe('action.yml', () => {
  it('runs the committed bundle on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
    expect(readFileSync(path.join(ROOT, 'dist/index.js')).length).toBeGreaterThan(0)
    expect(
      action.name &&
        action.description &&
        action.author &&
        action.branding.icon &&
        action.branding.color
    ).toBeTruthy()
  })

  it('declares exactly the inputs and outputs the code uses', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(Object.values(Input).sort())
    expect(Object.keys(action.outputs).sort()).toEqual(Object.values(Output).sort())
  })

  it('has the same defaults as the code', () => {
    for (const [name, value] of Object.entries(Defaults))
      expect(action.inputs[name]?.default).toBe(value)
    const withDefault = Object.entries(action.inputs)
      .filter(([, i]) => i.default !== undefined)
      .map(([n]) => n)
    expect(withDefault.sort()).toEqual(Object.keys(Defaults).sort())
    expect(
      Object.entries(action.inputs)
        .filter(([, i]) => i.required)
        .map(([n]) => n)
    ).toEqual(['api-key', 'project-id'])
  })

  it('describes every input and output', () => {
    for (const entry of [...Object.values(action.inputs), ...Object.values(action.outputs)]) {
      expect(entry.description.length).toBeGreaterThan(10)
    }
  })
})

describe('README', () => {
  it('has inputs and outputs tables generated from action.yml', () => {
    const readme = read('README.md')
    expect(readme).toContain('<!-- inputs: action.yml -->')
    expect(readme).toContain('<!-- outputs: action.yml -->')
    expect(unpadTables(renderReadme(readme)), "README tables are stale: run 'npm run readme'").toBe(
      unpadTables(readme)
    )
  })

  it('gives the two commands', () => {
    const readme = read('README.md')
    expect(readme).toContain('npm ci && npm start')
    expect(readme).toContain('npm ci && npm test')
  })
})

describe('package', () => {
  it('sends the package version in the User-Agent', () => {
    expect(ACTION_VERSION).toBe((JSON.parse(read('package.json')) as { version: string }).version)
  })
  it('keeps the runtime dependencies to the chosen three', () => {
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> }
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      '@actions/core',
      '@actions/github',
      'undici'
    ])
  })
})
