import { actionInputs } from '../agent/names.js'
import { ACTION_INPUTS } from '../policy/actions.js'

/** The changes sub-action's inputs (changes/action.yml). */
export const ChangesInputs = actionInputs(ACTION_INPUTS.changes)
