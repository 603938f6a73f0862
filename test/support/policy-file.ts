import {
  ACTION_INPUTS,
  type AgentAction,
  MOVED_TO_POLICY,
  NEW_POLICY_KEYS,
  REMOVED_INPUT
} from '../../src/policy/actions.js'
import { DEFAULT_POLICY_PATH } from '../../src/policy/load.js'
import { policyFromInputs, policyYaml } from '../../src/policy/migration.js'
import { FakeGitHub } from '../simulator/fake-github.js'
import { parse } from 'yaml'
import type { YamlValue } from '../../src/policy/yaml-text.js'
import type { RunOptions } from './run-action.js'

/** Keys whose value is a mapping: a test gives it as YAML flow text, `{days: [sunday]}`. */
const MAPPING_KEYS = ['quiet-hours']

/** The agent action each bundle runs, as the policy module names it. */
const ACTIONS: Record<string, AgentAction> = {
  'dist/index.js': 'main',
  'dist/changes/index.js': 'changes',
  'dist/review/index.js': 'review',
  'dist/impact/index.js': 'impact'
}

/** Repositories whose policy file a run's step wrote, by fake GitHub: the next run takes it back. */
const written = new WeakMap<FakeGitHub, Set<string>>()

/**
 * The step as the team would set it up in v2: the inputs a test gives under the names of the
 * policy file's keys (v1's `max-jobs`, `approval`, `paths`…, v2's `max-credits`…, and a change run's
 * `prompt`, now `instructions`) are taken out of the step's inputs and committed as the repository's
 * .github/docs-agent.yml on the fake GitHub the run talks to, written by the action's own migration
 * (policyFromInputs, policyYaml). v1's `changes` is dropped: the changes sub-action always catches
 * up. A step without such inputs takes back a policy file an earlier step of the test wrote.
 * `asGiven` keeps the inputs as they are, for what tests the refusal of moved inputs.
 */
export function withPolicyFile(options: RunOptions & { asGiven?: boolean }): RunOptions {
  const action = ACTIONS[options.entry ?? 'dist/index.js']
  const env = options.env ?? {}
  const gh = FakeGitHub.at(env.GITHUB_API_URL)
  const repository = env.GITHUB_REPOSITORY
  if (options.asGiven || !action || !gh || !repository) return options
  const inputs: Record<string, string> = {}
  const moved: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.inputs)) {
    // A check a second keeps the suite quick; only the main action takes it, the others keep theirs.
    if (name === 'poll-interval' && !ACTION_INPUTS[action].includes(name)) continue
    const policy =
      (MOVED_TO_POLICY as readonly string[]).includes(name) ||
      (NEW_POLICY_KEYS as readonly string[]).includes(name) ||
      (action === 'changes' && name === 'prompt')
    if (name === REMOVED_INPUT) continue
    if (policy) moved[name] = value
    else inputs[name] = value
  }
  const values: Record<string, YamlValue | undefined> = { ...policyFromInputs(action, moved) }
  // A key that never was an input (a mapping such as `quiet-hours`) is given as YAML's flow text.
  for (const key of MAPPING_KEYS) if (moved[key]) values[key] = parse(moved[key]) as YamlValue
  const mine = written.get(gh) ?? new Set<string>()
  written.set(gh, mine)
  if (Object.keys(values).length) {
    gh.setFile(repository, DEFAULT_POLICY_PATH, policyYaml(values))
    mine.add(repository)
  } else if (mine.delete(repository)) gh.setFile(repository, DEFAULT_POLICY_PATH, undefined)
  return { ...options, inputs }
}

/** The run's read of its policy file (the contents API, the default branch). */
export const isPolicyRead = (r: { method: string; path: string }): boolean =>
  r.method === 'GET' && /\/contents\/\.github(%2F|\/)docs-agent\.yml$/.test(r.path)

/** A run's GitHub calls beside the read of its policy file, which every run past its payload makes. */
export const besidePolicy = <R extends { method: string; path: string }>(
  requests: readonly R[]
): R[] => requests.filter(r => !isPolicyRead(r))
