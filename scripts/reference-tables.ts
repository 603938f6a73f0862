// Writes the inputs and outputs tables of docs/reference.md from the action.yml files, between
// markers like <!-- inputs: action.yml --> … <!-- end -->, and an annotated `with:` block of every
// input between <!-- usage: action.yml --> … <!-- end -->; and the gates' order in
// docs/architecture.md (scripts/gate-order.ts). `--write` updates the files; without it, exits 1
// when one is stale. `npm run reference` writes them.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, stringify } from 'yaml'
import { ARCHITECTURE, renderGateOrder } from './gate-order.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The page that holds the generated tables, relative to the repository. */
export const REFERENCE = 'docs/reference.md'

interface ActionYaml {
  inputs?: Record<string, { description?: string; required?: boolean; default?: string }>
  outputs?: Record<string, { description?: string }>
}

const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()

export function table(kind: 'inputs' | 'outputs', actionFile: string): string {
  const action = parse(readFileSync(path.join(ROOT, actionFile), 'utf8')) as ActionYaml
  if (kind === 'inputs') {
    const rows = Object.entries(action.inputs ?? {}).map(([name, input]) => {
      const fallback = input.required
        ? '**required**'
        : input.default !== undefined
          ? `\`${input.default}\``
          : ''
      return `| \`${name}\` | ${fallback} | ${cell(input.description ?? '')} |`
    })
    return ['| input | default | description |', '|---|---|---|', ...rows].join('\n')
  }
  const rows = Object.entries(action.outputs ?? {}).map(
    ([name, output]) => `| \`${name}\` | ${cell(output.description ?? '')} |`
  )
  return ['| output | description |', '|---|---|', ...rows].join('\n')
}

/** Inputs whose value in the usage block is where it usually comes from, not a default. */
const EXAMPLE_VALUES: Record<string, string> = {
  'api-key': '${{ secrets.MINTLIFY_API_KEY }}',
  'project-id': '${{ vars.MINTLIFY_PROJECT_ID }}'
}
const COMMENT_WIDTH = 96

/** `# ` lines of at most COMMENT_WIDTH characters after the indent. */
function commentLines(text: string, indent: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    if (line && line.length + 1 + word.length > COMMENT_WIDTH) {
      lines.push(`${indent}# ${line}`)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(`${indent}# ${line}`)
  return lines
}

/**
 * The step that uses the action with every input, each under its description, in the manner of
 * actions/checkout's README: inputs with a default show it as their value (copying the block changes
 * nothing), inputs without one are commented out.
 */
export function usage(actionFile: string): string {
  const action = parse(readFileSync(path.join(ROOT, actionFile), 'utf8')) as ActionYaml
  const folder = path.dirname(actionFile)
  const lines = [`- uses: mintlify/agent-action${folder === '.' ? '' : `/${folder}`}@v2`, '  with:']
  const indent = '    '
  for (const [name, input] of Object.entries(action.inputs ?? {})) {
    lines.push(...commentLines(input.description ?? '', indent))
    const value = EXAMPLE_VALUES[name] ?? input.default
    if (input.required) lines.push(`${indent}# Required.`)
    if (value === undefined) lines.push(`${indent}# ${name}:`)
    else lines.push(`${indent}${name}: ${stringify(value, { singleQuote: true }).trim()}`)
    lines.push('')
  }
  lines.pop()
  return ['```yaml', ...lines, '```'].join('\n')
}

// An empty pair (`<!-- inputs: x -->` then `<!-- end -->` on the next line) matches too, so a new
// action's tables can be added by writing just the markers.
const MARKER = /(<!-- (inputs|outputs|usage): ([\w./-]+) -->)\n[\s\S]*?<!-- end -->/g

/** The page with fresh tables and usage blocks between the markers. */
export function renderTables(text: string): string {
  return text.replace(
    MARKER,
    (_all, open: string, kind: 'inputs' | 'outputs' | 'usage', file: string) => {
      const fresh = kind === 'usage' ? usage(file) : table(kind, file)
      return `${open}\n\n${fresh}\n\n<!-- end -->`
    }
  )
}

/** Prettier pads table cells to line up; compare tables without that padding. */
export function unpadTables(text: string): string {
  return text
    .split('\n')
    .map(line =>
      line.startsWith('|')
        ? line
            .split(/(?<!\\)\|/)
            .map(c => c.trim().replace(/^:?-+:?$/, '---'))
            .join('|')
        : line
    )
    .join('\n')
}

/** Each generated page and what renders it: the reference's tables, the architecture's gate order. */
const PAGES: readonly { file: string; render: (text: string) => string; from: string }[] = [
  { file: REFERENCE, render: renderTables, from: 'action.yml' },
  { file: ARCHITECTURE, render: renderGateOrder, from: 'the gate lists' }
]

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const page of PAGES) {
    const file = path.join(ROOT, page.file)
    const current = readFileSync(file, 'utf8')
    const fresh = page.render(current)
    if (process.argv.includes('--write')) {
      writeFileSync(file, fresh)
      const prettier = path.join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs')
      execFileSync(process.execPath, [prettier, '--log-level', 'warn', '--write', file])
    } else if (unpadTables(fresh) !== unpadTables(current)) {
      console.error(`${page.file}: differs from ${page.from}: run 'npm run reference'.`)
      process.exitCode = 1
    }
  }
}
