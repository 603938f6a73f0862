import { run } from './main.js'

// The impact sub-action (impact/action.yml); `run` reports its own failures.
await run()
