import { type RunEvent, eventPhrase } from '../github/event.js'
import { InputError } from '../runner/errors.js'
import { type AgentAction, type Refusal, withCounting } from '../agent/agent-run.js'
import { applyGates } from '../agent/gates/gate.js'
import { OWN_GATES } from './gates/order.js'
import { changesAfterJob } from './after-job.js'
import { Input, Key, SubAction, subActionUses } from '../agent/names.js'
import { type FlowDeps, type PreparedRun, isStopped, skippedRun } from '../agent/prepared-run.js'
import {
  DISPATCH_TYPE,
  type Inputs,
  type Settings,
  needsInput,
  withPolicy
} from '../agent/settings.js'
import type { Policy } from '../policy/policy.js'
import { DASHBOARD_LABEL } from '../records/ledger.js'
import { ChangesInputs } from './names.js'
import { isApprovalTick } from './approval.js'
import { isChangeRun, planChange } from './change-plan.js'
import { prepareChangeRun } from './change-run.js'

export const changesAction: AgentAction<Settings> = {
  name: 'changes',
  defaults: ChangesInputs.defaults,
  refuse: changeRefusal,
  settings: changesSettings,
  prepare: prepareChanges,
  afterJob: changesAfterJob
}

/**
 * The changes sub-action's run: a merged pull request, a push, a code repository's dispatch or a
 * scheduled or manual catch-up documents the changes since the last documented commit
 * (change-run.ts); an edit of the dashboard may be a tick. A change on its own (no ledger, a pull
 * request not merged yet, another branch) is held back over `max-jobs` too.
 */
export async function prepareChanges(
  settings: Settings,
  event: RunEvent,
  deps: FlowDeps
): Promise<PreparedRun> {
  const tick = isApprovalTick(event, settings)
  if (!tick && !isChangeRun(event)) return notAChange(event)
  const prepared = await prepareChangeRun(settings, event, { ...deps, tick })
  if (tick || planChange(settings, event).kind !== 'own' || isStopped(prepared)) return prepared
  // A change on its own starts by itself on every push: its limits (quiet hours, the budget) may
  // skip it, the budget reading the dashboard that counts it.
  const pull = event.pullRequest?.number
  const what = pull === undefined ? 'this push' : `pull request #${pull}`
  const counted = await withCounting(prepared, settings, event, deps, { what, hold: true })
  const now = () => deps.clock.wallNow()
  const stop = await applyGates(OWN_GATES.limits, { settings, now, what, ledger: counted.ledger })
  if (!stop) return counted.prepared
  return skippedRun(stop.why, {
    source: prepared.source,
    notices: prepared.notices,
    dashboardUrl: counted.prepared.dashboardUrl
  })
}

/** Another family's event: no change (a review is refused: a wrong `uses:`). */
function notAChange(event: RunEvent): PreparedRun {
  return skippedRun(notAChangeWhy(event))
}

function notAChangeWhy(event: RunEvent): string {
  if (event.name === 'pull_request_review')
    throw new InputError(
      `A pull_request_review event is a review of a docs pull request: sending it to its job is the review sub-action's work. Use \`uses: ${subActionUses(SubAction.Review)}\` in this workflow.`
    )
  return `${eventPhrase(event.name)} is not a code change: this sub-action documents merged pull requests, pushes, dispatches and scheduled or manual catch-ups, and takes ticks on the dashboard. Issues and comments are the main action's (\`uses: ${subActionUses()}\`).`
}

/**
 * Why the event documents nothing, from the payload alone, before any request: another family's
 * event (an edit of the dashboard may be a tick, which only the policy and the dashboard tell), a
 * pull request or push that holds no change to document, a dispatch of another type.
 */
function changeRefusal(inputs: Inputs, event: RunEvent): Refusal | undefined {
  if (
    event.name === 'issues' &&
    event.action === 'edited' &&
    event.issue?.labels.includes(DASHBOARD_LABEL)
  )
    return undefined
  if (!isChangeRun(event)) return { why: notAChangeWhy(event) }
  if (
    event.name === 'repository_dispatch' &&
    event.dispatch &&
    event.dispatch.type !== DISPATCH_TYPE
  )
    return {
      why: `Ignored a repository_dispatch of type '${event.dispatch.type.replace(/[^A-Za-z0-9_.-]/g, '?').slice(0, 40)}': the docs agent takes type '${DISPATCH_TYPE}'.`
    }
  if (!['pull_request', 'pull_request_target', 'push'].includes(event.name)) return undefined
  // Whatever the policy, these events hold nothing to document (a close without a merge, a tag…).
  const plan = planChange({ label: inputs.label, dashboard: true }, event)
  return plan.kind === 'skip' ? { why: plan.why, source: plan.source } : undefined
}

/** The inputs over the policy file, and the keys of it that need an input this workflow lacks. */
function changesSettings(inputs: Inputs, policy: Policy): Settings {
  const settings = withPolicy(inputs, policy)
  const why = (key: string): string =>
    `docs pull requests are in the docs repository, written with a token that can write its pull requests. Give '${Input.DocsToken}' a token with 'pull-requests: write' on the docs repository, or remove '${key}'.`
  if (settings.expireAfter && !settings.docsToken)
    throw needsInput(settings, Key.ExpireAfter, Input.DocsToken, why(Key.ExpireAfter))
  if (settings.reviewers && !settings.docsToken)
    throw needsInput(settings, Key.Reviewers, Input.DocsToken, why(Key.Reviewers))
  if (settings.codeToken && !settings.codeRepositories?.length)
    throw new InputError(
      `Input '${Input.CodeToken}' needs '${Key.CodeRepositories}' in the policy file: it reads the code repositories listed there.`
    )
  return settings
}
