import { State } from './names.js'

// The agent action's post step (runs.post in action.yml, post-if: always()). Most runs leave no
// comment to finalise: check the saved state (the runner passes it as STATE_*, which is all that
// core.getState reads) before loading anything, so those runs pay for Node's start-up only.
if (process.env[`STATE_${State.Comment}`]) {
  const { post } = await import('./post-main.js')
  await post()
}
