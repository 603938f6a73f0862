import { post } from './post-main.js'

// The agent action's post step (runs.post in action.yml).
await post()
