import { run } from './main.js'

// The agent action (action.yml); `run` reports its own failures.
await run()
