import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../support/run-action.js'

/**
 * The house rules of src/, checked on every run: entries → flows → clients → plumbing, each room
 * depending only on the rooms below it, no import cycles, @actions/* only where the runner and
 * GitHub are talked to, no node HTTP modules.
 */
const SRC = path.join(ROOT, 'src')

/**
 * A room may import from the rooms before it in this list, never from one after it or beside it:
 * the plumbing knows no feature; the service client, GitHub, the signed records (the ledger's
 * format, which the agent writes and the gaps sub-action reads) and the docs site's routing (which
 * site page a docs file is, for both) know nothing of each other; the policy file (its schema,
 * presets and reading, which the agent's actions share) stands on them; what the agent actions
 * share (the job, the wait, the live comment, the ledger, the report) knows no action; and no
 * action's flows reach into another's.
 */
const LAYERS: readonly string[][] = [
  ['runner'],
  ['mintlify', 'github', 'records', 'docs-site'],
  ['policy'],
  ['agent'],
  ['prompt', 'changes', 'review', 'impact', 'post', 'visitors', 'gaps']
]

/**
 * Inside a room, its sub-rooms (folders) and the files at its top stand in this order: each part
 * may import from the parts before it, never from one after it or beside it in the same row, so no
 * two sub-rooms import each other. A folder ends in `/`; `*.ts` is every file at the top not placed
 * in an earlier row.
 *
 * What the agent actions share, bottom to top: the words every flow shares (input and output names,
 * the settings and their allowed values, the job's outcome, the path filter, a batch's shape, the
 * trigger phrase, the docs pull request's records, running and waiting for a job); the live
 * comment; the ledger and its dashboard (what it records; it decides nothing); what every flow prepares
 * (prepared-run.ts); the controls every trigger shares (gates/: trust, quiet hours, the budget) and
 * what follows every job (after-job.ts); the frame that runs a prepared run and the report; the
 * body of every action's `run()`. The changes sub-action: the plan, the rules and where a batch goes
 * (fold.ts), then its gates, then the rest.
 */
const ROOM_ORDER: Record<string, readonly (readonly string[])[]> = {
  agent: [
    [
      'names.ts',
      'settings.ts',
      'outcome.ts',
      'batch.ts',
      'command-text.ts',
      'docs-pr-record.ts',
      'trusted-record.ts',
      'wait.ts',
      'run-job.ts',
      'docs-repository.ts'
    ],
    ['comment/'],
    ['ledger/'],
    ['prepared-run.ts'],
    ['gates/', 'after-job.ts'],
    ['agent-run.ts', 'report.ts'],
    ['action.ts']
  ],
  // The policy file, bottom to top: the parsers of its values (lists as v1 wrote them, globs,
  // budgets, repositories, YAML scalars); the words its keys choose from; its schema; the presets
  // and the agent actions' inputs; the resolved policy and the problems a file can have; where in
  // a file a problem is; reading a file; loading it, and the migration from v1's inputs.
  policy: [
    ['v1-lists.ts', 'path-filter.ts', 'budget.ts', 'code-repositories.ts', 'yaml-text.ts'],
    ['choices.ts'],
    ['schema.ts'],
    ['presets.ts', 'actions.ts'],
    ['policy.ts', 'problems.ts', 'key-messages.ts'],
    ['locator.ts'],
    ['read.ts'],
    ['load.ts', 'migration.ts']
  ],
  changes: [
    [
      'names.ts',
      'change-settings.ts',
      'change-plan.ts',
      'change-rules.ts',
      'approval.ts',
      'fold.ts'
    ],
    ['gates/'],
    ['*.ts']
  ],
  // No sub-rooms: a folder here must be given its place.
  prompt: [['*.ts']],
  review: [['*.ts']],
  impact: [['*.ts']],
  post: [['*.ts']],
  gaps: [['*.ts']],
  visitors: [['*.ts']]
}

/** A file's part of its room: its folder (`change/`), or the file itself at the room's top. */
function partOf(file: string): string {
  const rest = file.slice(file.indexOf('/') + 1)
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/') + 1) : rest
}

/** Where a file's part stands in its room's order; -1 when the order does not place it. */
function placeOf(file: string): number {
  const part = partOf(file)
  return (ROOM_ORDER[room(file)] ?? []).findIndex(row =>
    row.some(p => p === part || (p === '*.ts' && !part.endsWith('/')))
  )
}

/**
 * Whether `target` may be imported by `file` of the same room: its own folder, a part in an
 * earlier row, or another file at the top in the same row (the cycle test still holds those).
 */
function before(target: string, file: string): boolean {
  const [to, from] = [partOf(target), partOf(file)]
  if (to === from || placeOf(target) < placeOf(file)) return true
  return placeOf(target) === placeOf(file) && !to.endsWith('/') && !from.endsWith('/')
}

/** The entries: each action's index.ts (it only calls run()) and main.ts (it exports run()). */
const ENTRY = /^[a-z]+\/(index|main)\.ts$/

const files = readdirSync(SRC, { recursive: true })
  .map(String)
  .filter(f => f.endsWith('.ts'))
  .map(f => f.split(path.sep).join('/'))
  .sort()

function importsOf(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(path.join(SRC, file), 'utf8')
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)]
    .concat([...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)])
    .map(m => m[1] as string)
  const local = specs
    .filter(s => s.startsWith('.'))
    .map(s =>
      path.posix.normalize(path.posix.join(path.posix.dirname(file), s)).replace(/\.js$/, '.ts')
    )
  return { local, packages: specs.filter(s => !s.startsWith('.')) }
}

const room = (file: string): string => file.split('/')[0] as string
const layerOf = (file: string): number => LAYERS.findIndex(layer => layer.includes(room(file)))

describe('src/ architecture', () => {
  it('has every file in a known room', () => {
    expect(files.filter(f => layerOf(f) < 0)).toEqual([])
  })

  it('imports only from lower rooms or its own', () => {
    const wrong: string[] = []
    for (const file of files)
      for (const target of importsOf(file).local)
        if (room(target) !== room(file) && layerOf(target) >= layerOf(file))
          wrong.push(`${file} -> ${target}`)
    expect(wrong).toEqual([])
  })

  it('places every file of an action in its room order', () => {
    const actions = Object.keys(ROOM_ORDER)
    expect(files.filter(f => actions.includes(room(f)) && placeOf(f) < 0)).toEqual([])
  })

  it('imports inside an action only from the parts before it: no two sub-rooms import each other', () => {
    const wrong: string[] = []
    for (const file of files)
      for (const target of importsOf(file).local)
        if (room(target) === room(file) && room(file) in ROOM_ORDER && !before(target, file))
          wrong.push(`${file} -> ${target}`)
    expect(wrong).toEqual([])
  })

  it('imports an entry only from the entry above it: flows never reach up to main', () => {
    const wrong: string[] = []
    for (const file of files)
      for (const target of importsOf(file).local)
        if (
          ENTRY.test(target) &&
          !(file.endsWith('index.ts') && target === file.replace(/index\.ts$/, 'main.ts'))
        )
          wrong.push(`${file} -> ${target}`)
    expect(wrong).toEqual([])
  })

  it('has entries that only call run(), and mains that export it', () => {
    for (const entry of files.filter(f => f.endsWith('/index.ts'))) {
      const code = readFileSync(path.join(SRC, entry), 'utf8')
        .split('\n')
        .filter(line => line.trim() && !line.trim().startsWith('//'))
      expect(code, entry).toEqual(["import { run } from './main.js'", 'await run()'])
    }
    for (const main of files.filter(f => f.endsWith('/main.ts')))
      expect(readFileSync(path.join(SRC, main), 'utf8'), main).toMatch(
        /^export async function run\(/m
      )
  })

  it('has no import cycle', () => {
    const graph = new Map(files.map(f => [f, importsOf(f).local]))
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '))
        return
      }
      state.set(file, 'open')
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file])
      state.set(file, 'done')
    }
    for (const file of files) visit(file, [])
    expect(cycles).toEqual([])
  })

  it('imports @actions/core only in the runner plumbing, @actions/github only in github/api.ts', () => {
    const wrong = files.filter(
      f =>
        (importsOf(f).packages.includes('@actions/core') && room(f) !== 'runner') ||
        (importsOf(f).packages.includes('@actions/github') && f !== 'github/api.ts')
    )
    expect(wrong).toEqual([])
  })

  it('imports @octokit/* only in src/github/', () => {
    const wrong = files.filter(
      f => room(f) !== 'github' && importsOf(f).packages.some(p => p.startsWith('@octokit/'))
    )
    expect(wrong).toEqual([])
  })

  it('loads the YAML parser only where a YAML spec or the policy file is read, never statically', () => {
    // A static import would put the parser (about 290 KB) in every agent and gaps start, parsed by
    // Node each time; imported dynamically, ncc makes it a chunk only a YAML OpenAPI spec loads.
    const text = (f: string): string => readFileSync(path.join(SRC, f), 'utf8')
    // Its types may be imported: TypeScript erases `import type`.
    const staticYaml = files.filter(f =>
      /(?:^|\n)\s*(?:import|export)(?!\s+type\s)[^'"]*?from\s*['"]yaml['"]/.test(text(f))
    )
    expect(staticYaml).toEqual([])
    expect(files.filter(f => importsOf(f).packages.includes('yaml'))).toEqual([
      'docs-site/openapi-pages.ts',
      'policy/locator.ts',
      'policy/read.ts'
    ])
  })

  it('uses undici and Octokit for HTTP, never node:http, https, tls or net', () => {
    const wrong = files.filter(f =>
      importsOf(f).packages.some(p => /^(node:)?(http|https|tls|net|http2)$/.test(p))
    )
    expect(wrong).toEqual([])
  })
})
