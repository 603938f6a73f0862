import { actionInputs } from '../agent/names.js'
import { ACTION_INPUTS } from '../policy/actions.js'

/** The impact sub-action's inputs (impact/action.yml). */
export const ImpactInputs = actionInputs(ACTION_INPUTS.impact)
