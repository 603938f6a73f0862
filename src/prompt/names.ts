import { actionInputs } from '../agent/names.js'
import { ACTION_INPUTS } from '../policy/actions.js'

/** The main action's inputs (action.yml). */
export const PromptInputs = actionInputs(ACTION_INPUTS.main)
