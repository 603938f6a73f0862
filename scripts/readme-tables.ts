// Writes the inputs and outputs tables of README.md from the action.yml files, between markers like
// <!-- inputs: action.yml --> … <!-- end -->. `--write` updates the file; without it, exits 1 when stale.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

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

// An empty pair (`<!-- inputs: x -->` then `<!-- end -->` on the next line) matches too, so a new
// action's tables can be added by writing just the markers.
const MARKER = /(<!-- (inputs|outputs): ([\w./-]+) -->)\n[\s\S]*?<!-- end -->/g

/** The README with fresh tables between the markers. */
export function renderReadme(text: string): string {
  return text.replace(MARKER, (_all, open: string, kind: 'inputs' | 'outputs', file: string) => {
    return `${open}\n\n${table(kind, file)}\n\n<!-- end -->`
  })
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

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const file = path.join(ROOT, 'README.md')
  const current = readFileSync(file, 'utf8')
  const fresh = renderReadme(current)
  if (process.argv.includes('--write')) {
    writeFileSync(file, fresh)
    const prettier = path.join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs')
    execFileSync(process.execPath, [prettier, '--log-level', 'warn', '--write', file])
  } else if (unpadTables(fresh) !== unpadTables(current)) {
    console.error("README.md tables differ from action.yml: run 'npm run readme'.")
    process.exit(1)
  }
}
