// `npm start`: runs the bundled action the way the runner does, against the embedded simulator,
// or against the real service when MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID are set.
// Arguments after `--` are the prompt.
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../test/simulator/server.js'
import { runAction } from '../test/support/run-action.js'

const real = Boolean(process.env.MINTLIFY_API_KEY && process.env.MINTLIFY_PROJECT_ID)
const prompt =
  process.argv.slice(2).join(' ').trim() || 'Document the new retry options of the client'
const sim = real ? undefined : await Simulator.start({ job: { durationMs: 4000 } })

const inputs: Record<string, string> = {
  'api-key': real ? (process.env.MINTLIFY_API_KEY as string) : SIM_API_KEY,
  'project-id': real ? (process.env.MINTLIFY_PROJECT_ID as string) : SIM_PROJECT,
  'api-url': real
    ? (process.env.MINTLIFY_API_URL ?? 'https://api.mintlify.com')
    : (sim as Simulator).url,
  prompt,
  'poll-interval': '10s',
  timeout: real ? '30m' : '2m'
}

console.log(real ? `Running against ${inputs['api-url']}` : `Simulator listening on ${sim?.url}`)
console.log('--- action log ---')
// The runner swallows ::add-mask:: commands; show them as it would, without the value.
const result = await runAction({
  inputs,
  onOutput: text => process.stdout.write(text.replace(/^::add-mask::.*$/gm, '::add-mask::***'))
})
console.log('--- outputs ---')
for (const [name, value] of Object.entries(result.outputs)) console.log(`${name}: ${value}`)
console.log('--- job summary ---')
console.log(result.summary.trim())
console.log('---')
console.log(
  `Exit code ${result.code} after ${(result.durationMs / 1000).toFixed(1)}s${sim ? `; the simulator saw ${sim.exchanges.length} requests` : ''}.`
)
await sim?.close()
process.exitCode = result.code ?? 1
