import { PERMISSIONS } from '../github/permission.js'

// The words the policy file's keys choose from, apart from the schema so that what only needs
// the words (the flows' settings, a run without a policy file) loads no validator.

/** The file's format; a higher one was written for a newer action. */
export const POLICY_VERSION = 1
/** A policy file is a page of settings; anything longer is a wrong path or an attack. */
export const MAX_POLICY_BYTES = 64 * 1024
export const PRESET_NAMES = ['cautious', 'standard', 'autopilot'] as const
export const PERMISSION_CHOICES = [...PERMISSIONS, 'none'] as const
export const FOLD_MODES = ['open-pr', 'never'] as const
/**
 * `approval: dashboard`: change runs and scheduled catch-ups start nothing; their changes wait on the
 * dashboard in one batch with a checkbox, and a tick by someone with `required-permission` (an
 * `issues` `edited` event on the dashboard) starts them once.
 */
export const APPROVAL_MODES = ['none', 'dashboard'] as const
export const REVIEWER_MODES = ['authors'] as const

export type PresetName = (typeof PRESET_NAMES)[number]
export type FoldMode = (typeof FOLD_MODES)[number]
export type ApprovalMode = (typeof APPROVAL_MODES)[number]
export type ReviewerMode = (typeof REVIEWER_MODES)[number]

/** The days `quiet-hours` takes, in the order of JavaScript's getDay() (Sunday first). */
export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday'
] as const
