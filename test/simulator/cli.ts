// Runs the simulator on its own: `npm run simulator -- --port 4010 --duration 3000 --final completed`
// (`--visitors 100000 --path-chars 40`: a generated site of that many pages, with paths that long).
import { parseArgs } from 'node:util'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from './server.js'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    duration: { type: 'string', default: '3000' },
    final: { type: 'string', default: 'completed' },
    'no-pr': { type: 'boolean', default: false },
    visitors: { type: 'string', default: '42' },
    'path-chars': { type: 'string', default: '0' }
  }
})

const sim = await Simulator.start({
  port: Number(values.port),
  job: {
    durationMs: Number(values.duration),
    finalStatus: values.final as 'completed' | 'failed' | 'archived',
    prLink: !values['no-pr']
  },
  visitors: Number(values.visitors),
  pathChars: Number(values['path-chars'])
})
console.log(`Simulator listening on ${sim.url} (api key ${SIM_API_KEY}, project ${SIM_PROJECT})`)
const stop = (): void => void sim.close().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
