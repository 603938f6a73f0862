import { run } from './main.js'

// The visitors sub-action (visitors/action.yml); `run` reports its own failures.
await run()
