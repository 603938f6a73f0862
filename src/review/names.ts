import { actionInputs } from '../agent/names.js'
import { ACTION_INPUTS } from '../policy/actions.js'

/** The review sub-action's inputs (review/action.yml). */
export const ReviewInputs = actionInputs(ACTION_INPUTS.review)
