// A reference point for the start-up bench: a bundle holding @actions/core and nothing else,
// failing on a missing input the way every action built on the toolkit starts.
import * as core from '@actions/core'

core.setFailed(core.getInput('x') || "Input 'x' is required.")
