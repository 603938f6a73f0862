import { readFileSync } from 'node:fs'
import path from 'node:path'
import { LineCounter, isMap, isScalar, parseDocument, visit } from 'yaml'
import { ROOT } from './run-action.js'

/** This repository's actions, by the folder that `uses:` names after the repository or `./`. */
export const ACTION_FILES: Record<string, string> = {
  '': 'action.yml',
  changes: 'changes/action.yml',
  review: 'review/action.yml',
  impact: 'impact/action.yml',
  visitors: 'visitors/action.yml',
  gaps: 'gaps/action.yml'
}

/**
 * Which of this repository's action.yml files a `uses:` names: `mintlify/agent-action@v1`,
 * `mintlify/agent-action/gaps@<sha>`, `./`, `./visitors`. `undefined` for other actions; a folder
 * that holds none of ours gives `null`.
 */
export function actionFileOf(uses: string): string | null | undefined {
  const remote = /^mintlify\/agent-action(?:\/([^@]*))?@/i.exec(uses)
  const local = /^\.\/?([^@]*)$/.exec(uses)
  const match = remote ?? local
  if (!match) return undefined
  const folder = (match[1] ?? '').replace(/^\.?\/+|\/+$/g, '')
  return ACTION_FILES[folder] ?? null
}

const inputsOf = new Map<string, Set<string>>()
function inputs(actionFile: string): Set<string> {
  let names = inputsOf.get(actionFile)
  if (!names) {
    const action = parseDocument(readFileSync(path.join(ROOT, actionFile), 'utf8')).toJS() as {
      inputs?: Record<string, unknown>
    }
    names = new Set(Object.keys(action.inputs ?? {}))
    inputsOf.set(actionFile, names)
  }
  return names
}

/** One use of our actions found in a YAML text. */
export interface Use {
  uses: string
  line: number
  keys: string[]
}

/**
 * Every `with:` key given to one of this repository's actions in a YAML text (a workflow, a list of
 * steps, any snippet), checked against that action's inputs: one line per unknown key or unknown
 * action, `file:line: …`, naming the key. `firstLine` is the text's first line in its file.
 */
export function checkWithKeys(
  text: string,
  file: string,
  firstLine = 1
): { problems: string[]; uses: Use[] } {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter })
  const problems: string[] = []
  const uses: Use[] = []
  const lineOf = (offset: number | undefined): number =>
    lineCounter.linePos(offset ?? 0).line + firstLine - 1
  visit(doc, {
    Map(_key, map) {
      const usesNode = map.get('uses', true)
      if (!isScalar(usesNode) || typeof usesNode.value !== 'string') return
      const actionFile = actionFileOf(usesNode.value)
      if (actionFile === undefined) return
      const line = lineOf(usesNode.range?.[0])
      if (actionFile === null) {
        problems.push(`${file}:${line}: '${usesNode.value}' names no action of this repository`)
        return
      }
      const withNode = map.get('with', true)
      const keys: string[] = []
      if (isMap(withNode)) {
        for (const pair of withNode.items) {
          const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key)
          keys.push(key)
          if (!inputs(actionFile).has(key))
            problems.push(
              `${file}:${lineOf(isScalar(pair.key) ? pair.key.range?.[0] : undefined)}: '${key}' is not an input of ${usesNode.value} (${actionFile})`
            )
        }
      }
      uses.push({ uses: usesNode.value, line, keys })
    }
  })
  return { problems, uses }
}
