import { run } from './main.js'

// The agent action's post step (runs.post in action.yml, post-if: always()); it never fails the job.
await run()
