import * as v from 'valibot'
import { RecordSigner, commentSafeJson, findRecords, hideRecord } from './record.js'
import {
  LEDGER_FORMAT,
  type Ledger,
  LedgerSchema,
  isRecord,
  storedLedger
} from './ledger/format.js'
import { fitLedger } from './ledger/fit.js'
import { upgraded } from './ledger/migrations.js'

/**
 * The ledger's record: the signed state in the dashboard issue's body (agent/ledger/dashboard.ts
 * writes it), read and written here; nothing else anyone writes changes where a change goes. It is
 * beside the records because more than the agent reads it: the gaps sub-action ties readers' gaps
 * to its changes. Its format is ledger/format.ts (with ledger/starts.ts, the starts' compact form),
 * older formats are upgraded by ledger/migrations.ts, and ledger/fit.ts keeps it within its share
 * of the body. What the flows use of those is exported here too, so that they import one module.
 */
export {
  IMPACT_MEASURES,
  LEDGER_FORMAT,
  LIVE,
  MAX_FORMER_NAMES,
  MAX_WRITERS,
  type ChangeRef,
  type KeptOpen,
  type Ledger,
  type LedgerJob,
  type ProjectLedger,
  type ReaderImpact,
  type RunEntry,
  type Uncertain,
  type Waiting,
  type Watermark,
  emptyLedger,
  emptyProject,
  ledgerTitle
} from './ledger/format.js'
export { fitLedger, keptUncertain, openedAt } from './ledger/fit.js'
export {
  type AddedItems,
  addedItems,
  holdsNone,
  noneAdded,
  joinedItems,
  lackedItems,
  mergedLedger,
  noItems
} from './ledger/merge.js'
export {
  OUTCOME_WINDOW_MS,
  STARTS_KEPT_MS,
  noteStart,
  startsIn30Days,
  utcDay
} from './ledger/starts.js'

/** Finds the dashboard issue among the repository's issues. */
export const DASHBOARD_LABEL = 'docs-agent-dashboard'

/**
 * The place the ledger's record is bound to: this repository's dashboard issue. Without an issue,
 * the place states were bound to before they named their issue (read, never written).
 */
export const dashboardPlace = (repository: string, issue?: number): string =>
  issue === undefined ? `${repository} dashboard` : `${repository} dashboard #${issue}`

const TAG = 'mintlify-agent-ledger'

/** The signed state, in the current format, as it stands at the end of the dashboard's body. */
export function ledgerRecord(
  ledger: Ledger,
  signer: RecordSigner,
  place: string,
  now: number
): string {
  const json = commentSafeJson(storedLedger(fitLedger(ledger, now)))
  return hideRecord(TAG, signer.sign(place, json), json)
}

/**
 * Why a body gives no ledger: no record at all; none this key signed (a hand edit, or another API
 * key); one that does not parse; or one a newer version of the action wrote, in a format this one
 * does not know (`format`), which must never be written over.
 */
export type NoLedger =
  | { ok: false; why: 'none' | 'unsigned' | 'unreadable' }
  | { ok: false; why: 'newer'; format: number }

export type ReadLedger = { ok: true; ledger: Ledger } | NoLedger

/** The ledger in a dashboard's body: the newest record that verifies, or why there is none. */
export function readLedger(body: string, signer: RecordSigner, place: string): ReadLedger {
  const records = findRecords(body, TAG)
  if (records.length === 0) return { ok: false, why: 'none' }
  const signed = records.find(r => signer.verify(place, r.json, r.signature))
  if (!signed) return { ok: false, why: 'unsigned' }
  return parsedLedger(signed.json)
}

export type DashboardState =
  | { ok: true; ledger: Ledger; legacy: boolean }
  | NoLedger
  /** A state this action wrote in another issue, copied here: refused. */
  | { ok: false; why: 'elsewhere'; writtenIn: number; ledger: Ledger }

/**
 * The ledger in dashboard issue `issue` of `repository`: the newest record that verifies as written
 * in this issue. A record that verifies as written in another issue is a copy (`elsewhere`); one
 * that names no issue and verifies as the repository's is a state written before states were bound
 * to their issue (`legacy`), which the caller trusts only in an issue the action opened.
 */
export function readDashboardState(
  body: string,
  signer: RecordSigner,
  repository: string,
  issue: number
): DashboardState {
  const records = findRecords(body, TAG)
  if (records.length === 0) return { ok: false, why: 'none' }
  for (const record of records) {
    const claimed = claimedIssue(record.json)
    const place = dashboardPlace(repository, claimed)
    if (!signer.verify(place, record.json, record.signature)) continue
    const read = parsedLedger(record.json)
    if (!read.ok) return read
    if (claimed === undefined) return { ok: true, ledger: read.ledger, legacy: true }
    if (claimed === issue) return { ok: true, ledger: read.ledger, legacy: false }
    return { ok: false, why: 'elsewhere', writtenIn: claimed, ledger: read.ledger }
  }
  return { ok: false, why: 'unsigned' }
}

/** The issue a record's JSON says it was written in, unchecked (its signature is checked after). */
function claimedIssue(json: string): number | undefined {
  try {
    const issue = (JSON.parse(json) as { issue?: unknown }).issue
    return Number.isSafeInteger(issue) && (issue as number) > 0 ? (issue as number) : undefined
  } catch {
    return undefined
  }
}

/**
 * A verified record's state, in its format or an older one brought to this one, every field
 * checked (ledger/format.ts); a newer format is named, never read.
 */
function parsedLedger(json: string): ReadLedger {
  let state: unknown
  try {
    state = JSON.parse(json)
  } catch {
    return { ok: false, why: 'unreadable' }
  }
  const format = isRecord(state) ? state.v : undefined
  if (!isRecord(state) || typeof format !== 'number' || !Number.isSafeInteger(format) || format < 1)
    return { ok: false, why: 'unreadable' }
  if (format > LEDGER_FORMAT) return { ok: false, why: 'newer', format }
  const read = v.safeParse(LedgerSchema, upgraded(state, format))
  return read.success ? { ok: true, ledger: read.output } : { ok: false, why: 'unreadable' }
}
