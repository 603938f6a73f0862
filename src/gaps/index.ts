import { run } from './main.js'

// The docs-gaps sub-action (gaps/action.yml); `run` reports its own failures.
await run()
