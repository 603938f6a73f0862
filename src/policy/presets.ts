import { POLICY_VERSION, type PresetName } from './choices.js'
import type { PolicyFile } from './schema.js'

// Only types from the schema: a run without a policy file takes these and loads no validator.

/**
 * The values of the keys a file does not write, and does not take from its preset. A key missing
 * here has no value unless set: no instructions, no budget, no cap, no expiry, no reviewers.
 */
export const DEFAULTS = {
  version: POLICY_VERSION,
  'required-permission': 'write',
  'allowed-bots': [],
  paths: [],
  'paths-ignore': [],
  'skip-label': 'no-docs',
  'include-diff': false,
  fold: 'open-pr',
  'code-repositories': [],
  dashboard: true,
  'dashboard-title': 'Docs agent dashboard',
  approval: 'none',
  'credits-per-run': 180,
  'keep-label': 'docs-agent-keep'
} satisfies PolicyFile

/**
 * The presets a file starts from with `extends`: what a team turns on first. Each is a policy file
 * of its own (the schema's test reads them as one); a key the file writes overrides its preset.
 */
export const PRESETS: Readonly<Record<PresetName, PolicyFile>> = {
  // A first install: nothing starts without a tick on the dashboard, one docs pull request at a time.
  cautious: { approval: 'dashboard', 'max-open': 1, 'max-jobs': '20/month' },
  // Docs follow code on their own, within a Pro plan's 10,000 credits with room for hand-made jobs.
  standard: { 'max-open': 1, 'max-credits': 9000 },
  // More at once: three docs pull requests open, the whole Pro plan's credits.
  autopilot: { 'max-open': 3, 'max-credits': 10000 }
}
