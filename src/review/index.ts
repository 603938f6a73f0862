import { run } from './main.js'

// The review sub-action (review/action.yml); `run` reports its own failures.
await run()
