import { runVisitors } from './main.js'

// The visitors sub-action (visitors/action.yml); `runVisitors` reports its own failures.
await runVisitors()
