import { run } from './main.js'

// The changes sub-action (changes/action.yml); `run` reports its own failures.
await run()
