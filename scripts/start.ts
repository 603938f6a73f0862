// `npm start`: runs the bundled action the way the runner does, against the embedded simulator,
// or against the real service when MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID are set.
// Arguments after `--` are the prompt; `npm start -- --gaps` runs the docs-gaps sub-action instead
// (last week's searches, feedback and assistant questions) and prints the report it writes.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../test/simulator/server.js'
import { runAction } from '../test/support/run-action.js'

const real = Boolean(process.env.MINTLIFY_API_KEY && process.env.MINTLIFY_PROJECT_ID)
const args = process.argv.slice(2)
const gaps = args.includes('--gaps')
const prompt =
  args
    .filter(a => a !== '--gaps')
    .join(' ')
    .trim() || 'Document the new retry options of the client'
const sim = real ? undefined : await Simulator.start({ job: { durationMs: 4000 } })

const connection: Record<string, string> = {
  'api-key': real ? (process.env.MINTLIFY_API_KEY as string) : SIM_API_KEY,
  'project-id': real ? (process.env.MINTLIFY_PROJECT_ID as string) : SIM_PROJECT,
  'api-url': real
    ? (process.env.MINTLIFY_API_URL ?? 'https://api.mintlify.com')
    : (sim as Simulator).url
}
const inputs: Record<string, string> = gaps
  ? { ...connection, 'date-from': '-7d', 'date-to': 'today', 'output-file': 'mintlify-gaps.json' }
  : { ...connection, prompt, 'poll-interval': '10s', timeout: real ? '30m' : '2m' }

console.log(real ? `Running against ${inputs['api-url']}` : `Simulator listening on ${sim?.url}`)
console.log('--- action log ---')
// The runner swallows ::add-mask:: commands; show them as it would, without the value.
const result = await runAction({
  entry: gaps ? 'dist/gaps/index.js' : 'dist/index.js',
  inputs,
  onOutput: text => process.stdout.write(text.replace(/^::add-mask::.*$/gm, '::add-mask::***'))
})
console.log('--- outputs ---')
for (const [name, value] of Object.entries(result.outputs)) console.log(`${name}: ${value}`)
console.log('--- job summary ---')
console.log(result.summary.trim())
if (gaps && result.outputs.file) {
  console.log(`--- ${result.outputs.file} ---`)
  console.log(readFileSync(path.join(result.workspace, result.outputs.file), 'utf8').trim())
}
console.log('---')
console.log(
  `Exit code ${result.code} after ${(result.durationMs / 1000).toFixed(1)}s${sim ? `; the simulator saw ${sim.exchanges.length} requests` : ''}.`
)
await sim?.close()
process.exitCode = result.code ?? 1
