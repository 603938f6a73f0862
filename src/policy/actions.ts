import type { PolicyKey } from './schema.js'

/**
 * The agent's actions in v2 and their inputs (docs/reference.md has each action.yml's table): the
 * policy file is for what a repository decides once, the inputs for what differs per workflow. Read
 * by the migration (an input given to the wrong action names its action) and by the file's reading
 * (an input written as a key of the file says it stays an input).
 */
export const AGENT_ACTIONS = ['main', 'changes', 'review', 'impact'] as const
export type AgentAction = (typeof AGENT_ACTIONS)[number]

/** What a workflow writes in `uses:`, and what each action is for. */
export const ACTION_USES: Readonly<Record<AgentAction, { uses: string; what: string }>> = {
  main: { uses: 'mintlify/agent-action@v2', what: 'a prompt, an issue or a comment to a job' },
  changes: { uses: 'mintlify/agent-action/changes@v2', what: 'docs that follow code changes' },
  review: {
    uses: 'mintlify/agent-action/review@v2',
    what: 'review follow-ups on docs pull requests'
  },
  impact: { uses: 'mintlify/agent-action/impact@v2', what: 'reader impact of docs pull requests' }
}

/** The input naming the policy file, in every agent action. */
export const CONFIG_INPUT = 'config'

const CONNECTION = ['api-key', 'project-id', 'api-url', 'github-token', 'docs-token']

export const ACTION_INPUTS: Readonly<Record<AgentAction, readonly string[]>> = {
  main: [
    ...CONNECTION,
    'prompt',
    'prompt-file',
    'job-id',
    'wait',
    'timeout',
    'poll-interval',
    'fail-on',
    'comment',
    'issue-number',
    'dry-run',
    'label',
    'trigger-phrase',
    CONFIG_INPUT
  ],
  changes: [
    ...CONNECTION,
    'code-token',
    'label',
    'comment',
    'dry-run',
    'wait',
    'timeout',
    'fail-on',
    CONFIG_INPUT
  ],
  review: [
    ...CONNECTION,
    'follow-reviews',
    'trigger-phrase',
    'comment',
    'dry-run',
    'timeout',
    'fail-on',
    CONFIG_INPUT
  ],
  impact: [
    ...CONNECTION,
    'impact-after',
    'impact-comment',
    'max-requests',
    'dry-run',
    'timeout',
    CONFIG_INPUT
  ]
}

/** v1 inputs that are keys of the policy file now, under the same name. */
export const MOVED_TO_POLICY = [
  'required-permission',
  'allowed-bots',
  'fold',
  'skip-label',
  'include-diff',
  'dashboard',
  'dashboard-title',
  'paths',
  'paths-ignore',
  'code-repositories',
  'since',
  'max-jobs',
  'expire-after',
  'keep-label',
  'max-open',
  'reviewers',
  'approval'
] as const satisfies readonly PolicyKey[]

/**
 * The policy file's keys that were never inputs: given to an action as inputs, they are refused
 * like the moved ones, naming the file. With MOVED_TO_POLICY, every key of the file (a test holds
 * the two lists to the schema's keys), without loading the schema.
 */
export const NEW_POLICY_KEYS = [
  'version',
  'extends',
  'instructions',
  'max-credits',
  'credits-per-run',
  'docs-root',
  'quiet-hours'
] as const satisfies readonly PolicyKey[]

/** v1's `changes` input, which v2 has no place for. */
export const REMOVED_INPUT = 'changes'
export const REMOVED_WHY = `the changes sub-action (${ACTION_USES.changes.uses}) catches up on its schedule and workflow_dispatch runs, without 'changes: since-last'`

/** The actions an input belongs to; empty for an input no agent action has. */
export const actionsOf = (input: string): AgentAction[] =>
  AGENT_ACTIONS.filter(action => ACTION_INPUTS[action].includes(input))
