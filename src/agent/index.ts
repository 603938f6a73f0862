import { run } from './main.js'

// The whole action; `run` reports its own failures through core.setFailed.
await run()
